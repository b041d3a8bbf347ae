// Long-poll scale on ONE service process: N concurrent GET /v1/payments/{id}/status?maxPollMs=30000 on
// one payment, then one state change (merchant cancel). Reports the time until all N answered, each
// waiter's wake-up, the process's memory idle and with N waiting, and the database transactions while the
// N wait idle. Two rounds, each on its own payment:
//   1. the Node http client of the bench itself (the figures before the light client existed);
//   2. (raw) light clients (bench/longpollClient.mjs, BENCH_LONGPOLL_CLIENTS processes, 2 by default): raw
//      sockets, one prebuilt request each, a timestamp as each full response arrives. The Node client
//      parses 10,000 responses on the same two cores as the service while the service answers, so it
//      measures itself too.
//   3. (keep) the light clients on keep-alive connections, as a long-polling client that polls again on
//      its connection would: rounds 1 and 2 ask `Connection: close` (the old client's agent did), and
//      closing costs the service about twice what the answer does (a shutdown and the peer's close).
// Both measure from the moment the change request is sent to each full response's arrival.
// Rounds 2 and 3 are each followed by the same round against a baseline measured in the same run
// (bench/longpollBaseline.mjs: bare Koa, then a bare node:http handler, holding N requests and answering them
// at once with paygate's answer bytes, then the floor: one prebuilt response written straight to each socket,
// past Node's HTTP response), from the moment its release request is sent: what the machine, Node's HTTP
// server and the framework alone allow, and paygate's ratio to each.
// Run: make bench-longpoll   (BENCH_LONGPOLL_N=10000 by default; BENCH_LONGPOLL_ROUNDS=node,raw;
// BENCH_LONGPOLL_WARM=2000 waiters woken once on each server before the rounds, 0 for none;
// BENCH_CPU_PROF=<dir> writes the service's CPU profile there)
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pgLib from 'pg';
import {
  LIFTED_LIMITS,
  benchMerchant,
  fmt,
  freePort,
  node,
  root,
  rssMb,
  serviceEnv,
  startBenchChain,
  startChild,
  startPostgres,
  stopChild,
} from './lib.mjs';

const N = Number(process.env.BENCH_LONGPOLL_N || 10000);
const CLIENTS = Number(process.env.BENCH_LONGPOLL_CLIENTS || 2);
const WARM = Number(process.env.BENCH_LONGPOLL_WARM ?? 2000);
const ROUNDS = (process.env.BENCH_LONGPOLL_ROUNDS || 'node,raw,keep').split(',');
const PROF = process.env.BENCH_CPU_PROF;
const now = () => Number(process.hrtime.bigint()) / 1e6; // CLOCK_MONOTONIC, as in the light clients
// CPU time of a process's main thread (the event loop), in ms: what the wake-up costs the service, which a
// machine shared with other work shows more steadily than the wall clock.
const cpuMs = (pid) => Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Until `count()` reaches n, or (requests the loaded machine refused never arrive) has not grown for 2 s. */
async function untilHeld(count, n = N) {
  for (let w = await count(), same = 0; w < n && same < 4;) {
    await sleep(500);
    const x = await count();
    same = x === w ? same + 1 : 0;
    w = x;
  }
}
/** The q-quantile of ascending `sorted`. */
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

const pg = await startPostgres();
const chain = await startBenchChain();
let child;
const baselines = [];
try {
  node('dist/src/cli/migrate.js', { DATABASE_URL: pg.url });
  const acct = JSON.parse(node('dist/src/cli/admin.js', { DATABASE_URL: pg.url }, ['accounts', 'create', '--name', 'Bench']));
  const port = await freePort();
  // N requests arrive within a second or two: the per-second rate limits (not measured here) are lifted.
  const env = { ...serviceEnv(pg.url, port, chain), ...LIFTED_LIMITS };
  const nodeArgs = PROF ? ['--cpu-prof', `--cpu-prof-dir=${PROF}`] : [];
  child = await startChild('dist/src/main.js', env, `http://127.0.0.1:${port}/readyz`, { nodeArgs });
  // The baselines: bare Koa, a bare node:http handler, and raw socket writes (the machine's floor), holding the
  // same number of requests and answering them at once with the same bytes.
  for (const server of ['koa', 'node', 'raw']) {
    const basePort = await freePort();
    const url = `http://127.0.0.1:${basePort}`;
    const proc = await startChild('bench/longpollBaseline.mjs', { PORT: String(basePort), BASELINE_SERVER: server }, `${url}/readyz`);
    baselines.push({ server, port: basePort, url, proc });
  }
  const svc = `http://127.0.0.1:${port}`;
  const { headers: mh } = await benchMerchant(svc, acct.apiKey, chain);
  const newPayment = async () => {
    const body = JSON.stringify({
      referenceId: 'order-lp',
      amount: { unit: 'iso4217/USD', value: '1000' },
      expiresAt: Math.floor(Date.now() / 1000) + 86400,
    });
    return (await (await fetch(`${svc}/v1/payments`, { method: 'POST', headers: mh, body })).json()).paymentId;
  };
  const waiters = async () => {
    const text = await (await fetch(`${svc}/metrics`, { headers: { authorization: `Bearer ${env.METRICS_TOKEN}` } })).text();
    return Number(/^paygate_longpoll_waiters (\d+)/m.exec(text)?.[1] ?? NaN);
  };
  // Background work (expiry sweeper, pg-boss job polling) runs queries with or without waiters: measure it
  // first, in the same run, as the baseline for the idle window below.
  const stats = new pgLib.Client({ connectionString: pg.url });
  await stats.connect();
  const xacts = async () =>
    Number(
      (await stats.query('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0].n,
    );
  const idleMs = 5000;
  const idleWindow = async () => {
    const before = await xacts();
    await sleep(idleMs + 1000); // +1 s lets the window's statistics flush
    return (await xacts()) - before - 1; // minus our own first read
  };
  const background = await idleWindow();
  const backgroundPerS = background / ((idleMs + 1000) / 1000);

  /** The N waiters of one round: `answered` resolves with each answer's arrival time and the statuses. */
  const nodeClient = (paymentId) => {
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const arrivals = [];
    const statuses = {};
    const errorSamples = [];
    const polls = Array.from(
      { length: N },
      () =>
        new Promise((resolve) => {
          const req = http.get(`${svc}/v1/payments/${paymentId}/status?maxPollMs=30000`, { agent, headers: mh }, (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => {
              const s = res.statusCode === 200 ? JSON.parse(body).status : `http ${res.statusCode}`;
              statuses[s] = (statuses[s] || 0) + 1;
              arrivals.push(now());
              resolve();
            });
          });
          // A connection the loaded machine resets is counted and reported, not fatal.
          req.on('error', (e) => {
            errorSamples.push(e.message);
            resolve();
          });
        }),
    );
    const answered = Promise.all(polls).then(() => {
      if (errorSamples.length) console.log(`client errors: ${errorSamples.length} (${[...new Set(errorSamples)].join('; ')})`);
      return { arrivals, statuses, errors: errorSamples.length };
    });
    return { sent: Promise.resolve(), answered };
  };
  /** Light clients holding N requests to `target` ({ port, path }; the payment's status long-poll by default). */
  const rawClients = (paymentId, keepAlive, target = { port, path: `/v1/payments/${paymentId}/status?maxPollMs=30000` }, n = N) => {
    const connection = keepAlive ? {} : { Connection: 'close' };
    const headerLines = Object.entries({ Host: `127.0.0.1:${target.port}`, ...mh, ...connection }).map(([k, v]) => `${k}: ${v}\r\n`);
    const request = `GET ${target.path} HTTP/1.1\r\n${headerLines.join('')}\r\n`;
    const procs = Array.from({ length: CLIENTS }, (_, i) => {
      const p = fork(path.join(root, 'bench/longpollClient.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      const count = Math.floor(n / CLIENTS) + (i < n % CLIENTS ? 1 : 0);
      const connected = new Promise((resolve) => p.on('message', (m) => m.type === 'connected' && resolve(m)));
      const done = new Promise((resolve) => p.on('message', (m) => m.type === 'done' && resolve(m)));
      p.send({ port: target.port, request, count, connectAtOnce: 100 });
      return { connected, done };
    });
    return {
      sent: Promise.all(procs.map((p) => p.connected)),
      answered: Promise.all(procs.map((p) => p.done)).then((rs) => {
        const statuses = {};
        for (const r of rs) for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] || 0) + v;
        const errors = rs.reduce((a, r) => a + r.errors, 0);
        if (errors) console.log(`client errors: ${errors} (${rs.flatMap((r) => r.errorSamples).join('; ')})`);
        return { arrivals: rs.flatMap((r) => r.arrivals), statuses, errors };
      }),
    };
  };

  /** The payment's status answer, as a client reads it (the baselines answer with the same bytes). */
  const statusAnswer = async (paymentId) => (await fetch(`${svc}/v1/payments/${paymentId}/status`, { headers: mh })).text();
  /** Light clients holding n requests on a baseline, once the baseline holds them all. */
  const heldOn = async (baseline, keepAlive, n = N) => {
    const clients = rawClients(null, keepAlive, { port: baseline.port, path: '/wait' }, n);
    await clients.sent;
    await untilHeld(async () => (await (await fetch(`${baseline.url}/waiting`)).json()).waiting, n);
    return clients;
  };
  const release = (baseline, body) => fetch(`${baseline.url}/release`, { method: 'POST', body });

  // Warm-up, not measured: one wake-up of WARM waiters on the service and on each baseline (keep-alive), so each
  // server answers the measured rounds with its response path compiled, as a process that has served traffic
  // would; the first measured round is otherwise also the first time Node's JIT sees thousands of answers.
  if (WARM > 0) {
    const warmId = await newPayment();
    const answer = await statusAnswer(warmId);
    const w = rawClients(warmId, true, undefined, WARM);
    await w.sent;
    await untilHeld(waiters, WARM);
    await fetch(`${svc}/v1/payments/${warmId}/cancel`, { method: 'POST', headers: mh });
    await w.answered;
    for (const baseline of baselines) {
      const b = await heldOn(baseline, true, WARM);
      await release(baseline, answer);
      await b.answered;
    }
    await sleep(1000);
  }

  let first = true;
  for (const round of ROUNDS) {
    const paymentId = await newPayment();
    const rssIdle = rssMb(child.pid);
    const clients = round === 'node' ? nodeClient(paymentId) : rawClients(paymentId, round === 'keep');
    await clients.sent;
    // Wait until every request has arrived and waits (each costs an auth and a read on arrival): the
    // database goes quiet. Then watch it while all N wait (in the first round only).
    await untilHeld(waiters);
    for (let prev = await xacts(), i = 0; i < 10; i++) {
      await sleep(500);
      const x = await xacts();
      if (x - prev <= backgroundPerS * 0.75 + 3) break;
      prev = x;
    }
    const rssWaiting = rssMb(child.pid);
    const waiting = await waiters();
    const during = first ? await idleWindow() : null;

    const cpu0 = cpuMs(child.pid);
    const t0 = now();
    const cancel = await fetch(`${svc}/v1/payments/${paymentId}/cancel`, { method: 'POST', headers: mh });
    const { arrivals, statuses, errors } = await clients.answered;
    const cpu = cpuMs(child.pid) - cpu0;
    // Each waiter's wake-up: from the change's request to its answer's arrival (the change's own round trip included).
    const wake = arrivals.map((t) => t - t0).sort((a, b) => a - b);
    const early = wake.filter((w) => w < 0).length;
    const pct = (q) => quantile(wake, q);

    const label = {
      node: 'Node http client (in the bench process), Connection: close',
      raw: `light clients (${CLIENTS} processes, raw sockets), Connection: close`,
      keep: `light clients (${CLIENTS} processes, raw sockets), keep-alive connections`,
    }[round];
    console.log(`\n[${label}]`);
    console.log(`long-polls waiting on one process: ${waiting} of ${N}; answered before the change (should be 0): ${early}`);
    // A wait is capped at 30 s: on a machine too busy to get N requests in well before that, waits run out.
    if (early) console.log('INVALID ROUND: waits ran out before the change (the machine was too slow to set up); rerun');
    console.log(`state change -> all ${arrivals.length} answered: ${fmt(wake[wake.length - 1])} ms (cancel ${cancel.status})`);
    console.log(`wake-up after the change: p50 ${fmt(pct(0.5))} ms, p99 ${fmt(pct(0.99))} ms, max ${fmt(wake[wake.length - 1])} ms`);
    console.log(`service main-thread CPU from the change to the last answer: ${fmt(cpu)} ms (${fmt((cpu * 1000) / N)} µs per waiter)`);
    console.log(`answers: ${JSON.stringify(statuses)}${errors ? `, ${errors} connection errors` : ''}`);
    // Per waiter only in the first round: after one, RSS holds what the collector has not given back yet.
    const kbPerWaiter = first ? ((rssWaiting - rssIdle) * 1024) / N : null;
    if (first)
      console.log(`process RSS: ${fmt(rssIdle)} MB before, ${fmt(rssWaiting)} MB with ${N} waiting (${fmt(kbPerWaiter)} KB per waiter)`);
    if (PROF) console.log(`profile window (CLOCK_MONOTONIC ms): ${t0} ${t0 + wake[wake.length - 1]}`);
    if (during !== null)
      console.log(
        `database transactions in ${idleMs + 1000} ms: ${background} with no waiter (sweeper, job queue), ${during} with ${N} waiting`,
      );
    // The same round against each baseline (light clients only: the Node client measures itself).
    if (round !== 'node') {
      const answer = await statusAnswer(paymentId);
      for (const baseline of baselines) {
        const bRssIdle = rssMb(baseline.proc.pid);
        const base = await heldOn(baseline, round === 'keep');
        // Memory per held request, as paygate's: in each baseline's first round only.
        const bKb = baseline.rssMeasured ? null : ((rssMb(baseline.proc.pid) - bRssIdle) * 1024) / N;
        baseline.rssMeasured = true;
        const bCpu0 = cpuMs(baseline.proc.pid);
        const b0 = now();
        await release(baseline, answer);
        const b = await base.answered;
        const bCpu = cpuMs(baseline.proc.pid) - bCpu0;
        const bWake = b.arrivals.map((t) => t - b0).sort((x, y) => x - y);
        const bPct = (q) => quantile(bWake, q);
        const name = { koa: 'bare Koa', node: 'bare node:http', raw: 'raw socket writes' }[baseline.server];
        console.log(
          `baseline (${name} holding ${b.arrivals.length} requests, answered at once with the same ${answer.length}-byte body): ` +
            `all answered ${fmt(bWake.at(-1))} ms, p50 ${fmt(bPct(0.5))} ms, p99 ${fmt(bPct(0.99))} ms; ` +
            `main-thread CPU ${fmt(bCpu)} ms (${fmt((bCpu * 1000) / N)} µs per waiter)` +
            `${bKb === null ? '' : `; RSS ${fmt(bKb)} KB per waiter`}${b.errors ? `; ${b.errors} connection errors` : ''}`,
        );
        console.log(
          `paygate / ${name}: all answered ${fmt(wake.at(-1) / bWake.at(-1))}, p99 ${fmt(pct(0.99) / bPct(0.99))}, CPU per waiter ${fmt(cpu / bCpu)}` +
            `${bKb === null || kbPerWaiter === null ? '' : `, RSS per waiter ${fmt(kbPerWaiter / bKb)}`}`,
        );
        await sleep(1000);
      }
    }
    first = false;
    await sleep(1000);
  }
  await stats.end();
} finally {
  if (child) await stopChild(child);
  for (const b of baselines) await stopChild(b.proc);
  await chain.stop();
  await pg.stop();
}
