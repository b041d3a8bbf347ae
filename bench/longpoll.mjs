// Long-poll scale on ONE service process: N concurrent GET /v1/payments/{id}/status?maxPollMs=30000 on
// one payment, then one state change (merchant cancel). Reports the time until all N answered, the
// process's memory idle and with N waiting, and the database transactions while the N wait idle.
// Run: make bench-longpoll   (BENCH_LONGPOLL_N=10000 by default)
import http from 'node:http';
import pgLib from 'pg';
import { benchMerchant, fmt, freePort, node, rssMb, serviceEnv, startChild, startPostgres, stopChild } from './lib.mjs';

const N = Number(process.env.BENCH_LONGPOLL_N || 10000);
const pg = await startPostgres();
let child;
try {
  node('dist/src/cli/migrate.js', { DATABASE_URL: pg.url });
  const acct = JSON.parse(node('dist/src/cli/admin.js', { DATABASE_URL: pg.url }, ['accounts', 'create', '--name', 'Bench']));
  const port = await freePort();
  // N requests arrive within a second or two: the per-second rate limits (not measured here) are lifted.
  const limits = { RATE_LIMIT_CREDENTIAL_PER_S: '1000000', RATE_LIMIT_ACCOUNT_PER_S: '1000000' };
  child = await startChild('dist/src/main.js', { ...serviceEnv(pg.url, port), ...limits }, `http://127.0.0.1:${port}/readyz`);
  const svc = `http://127.0.0.1:${port}`;
  const { headers: mh, paymentId } = await benchMerchant(svc, acct.apiKey);
  const rssIdle = rssMb(child.pid);
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
    await new Promise((r) => setTimeout(r, idleMs + 1000)); // +1 s lets the window's statistics flush
    return (await xacts()) - before - 1; // minus our own first read
  };
  const background = await idleWindow();

  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  let answered = 0;
  let lastAnswerAt = 0;
  const answerTimes = [];
  const statuses = new Map();
  const polls = Array.from(
    { length: N },
    () =>
      new Promise((resolve, reject) => {
        const req = http.get(`${svc}/v1/payments/${paymentId}/status?maxPollMs=30000`, { agent, headers: mh }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => {
            const s = res.statusCode === 200 ? JSON.parse(body).status : `http ${res.statusCode}`;
            statuses.set(s, (statuses.get(s) || 0) + 1);
            answered++;
            lastAnswerAt = performance.now();
            answerTimes.push(lastAnswerAt);
            resolve();
          });
        });
        req.on('error', reject);
      }),
  );
  // Wait until every request has arrived (each costs an auth and a read on arrival): the database goes
  // quiet. Then watch it while all N wait.
  const backgroundPerS = background / ((idleMs + 1000) / 1000);
  for (let prev = await xacts(), i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = await xacts();
    if (now - prev <= backgroundPerS * 1.5 + 3) break;
    prev = now;
  }
  const rssWaiting = rssMb(child.pid);
  const during = await idleWindow();
  const answeredBeforeChange = answered;

  const t0 = performance.now();
  const cancel = await fetch(`${svc}/v1/payments/${paymentId}/cancel`, { method: 'POST', headers: mh });
  await Promise.all(polls);
  const allAnsweredMs = lastAnswerAt - t0;
  // Each waiter's wake-up: from the change's request to its answer's arrival (the change's own round trip included).
  const wake = answerTimes
    .slice(answeredBeforeChange)
    .map((t) => t - t0)
    .sort((a, b) => a - b);
  const pct = (q) => wake[Math.min(wake.length - 1, Math.floor(q * wake.length))];
  await stats.end();

  console.log(`\nlong-polls waiting on one process: ${N}`);
  console.log(`answered before the change (should be 0): ${answeredBeforeChange}`);
  console.log(`state change -> all ${N} answered: ${fmt(allAnsweredMs)} ms (cancel ${cancel.status})`);
  console.log(`wake-up after the change: p50 ${fmt(pct(0.5))} ms, p99 ${fmt(pct(0.99))} ms, max ${fmt(wake[wake.length - 1])} ms`);
  console.log(`answers: ${JSON.stringify(Object.fromEntries(statuses))}`);
  console.log(
    `process RSS: ${fmt(rssIdle)} MB idle, ${fmt(rssWaiting)} MB with ${N} waiting (${fmt(((rssWaiting - rssIdle) * 1024) / N)} KB per waiter)`,
  );
  console.log(
    `database transactions in ${idleMs + 1000} ms: ${background} with no waiter (sweeper, job queue), ${during} with ${N} waiting`,
  );
} finally {
  if (child) await stopChild(child);
  await pg.stop();
}
