// Long-poll scale on ONE service process: N concurrent GET /v1/payments/{id}/status?maxPollMs=30000 on
// one payment, then one state change (merchant cancel). Reports the time until all N answered, the
// process's memory idle and with N waiting, and the database transactions while the N wait idle.
// Run: make bench-longpoll   (BENCH_LONGPOLL_N=5000 by default)
import http from 'node:http';
import pgLib from 'pg';
import { fmt, freePort, node, rssMb, serviceEnv, startChild, startPostgres, stopChild } from './lib.mjs';

const N = Number(process.env.BENCH_LONGPOLL_N || 5000);
const pg = await startPostgres();
let child;
try {
  node('dist/src/cli/migrate.js', { DATABASE_URL: pg.url });
  const acct = JSON.parse(node('dist/src/cli/admin.js', { DATABASE_URL: pg.url }, ['accounts', 'create', '--name', 'Bench']));
  const port = await freePort();
  child = await startChild('dist/src/main.js', serviceEnv(pg.url, port), `http://127.0.0.1:${port}/readyz`);
  const svc = `http://127.0.0.1:${port}`;
  const h = { 'Api-Key': acct.apiKey, 'content-type': 'application/json' };
  const m = await (
    await fetch(`${svc}/v1/merchants`, {
      method: 'POST',
      headers: { ...h, 'Idempotency-Key': 'b' },
      body: JSON.stringify({ merchantName: 'B', merchantEmail: 'b@x.io' }),
    })
  ).json();
  await fetch(`${svc}/v1/merchants/${m.merchant.id}/settlements/crypto`, {
    method: 'POST',
    headers: { ...h, 'Idempotency-Key': 's' },
    body: JSON.stringify({
      settlements: [
        {
          asset: 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          destination: 'eip155:8453:0x52908400098527886E0F7030069857D2E4169EE7',
        },
      ],
    }),
  });
  const mh = { ...h, 'Merchant-Id': m.merchant.id };
  const pay = await (
    await fetch(`${svc}/v1/payments`, {
      method: 'POST',
      headers: mh,
      body: JSON.stringify({
        referenceId: 'lp',
        amount: { unit: 'iso4217/USD', value: '1000' },
        expiresAt: Math.floor(Date.now() / 1000) + 3600,
      }),
    })
  ).json();
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
  const statuses = new Map();
  const polls = Array.from(
    { length: N },
    () =>
      new Promise((resolve, reject) => {
        const req = http.get(`${svc}/v1/payments/${pay.paymentId}/status?maxPollMs=30000`, { agent, headers: mh }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => {
            const s = res.statusCode === 200 ? JSON.parse(body).status : `http ${res.statusCode}`;
            statuses.set(s, (statuses.get(s) || 0) + 1);
            answered++;
            lastAnswerAt = performance.now();
            resolve();
          });
        });
        req.on('error', reject);
      }),
  );
  // Wait until every request has arrived (each costs an auth and a read on arrival): the database goes
  // quiet. Then watch it while all N wait.
  for (let prev = await xacts(), i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = await xacts();
    if (now - prev <= 3) break;
    prev = now;
  }
  const rssWaiting = rssMb(child.pid);
  const during = await idleWindow();
  const answeredBeforeChange = answered;

  const t0 = performance.now();
  const cancel = await fetch(`${svc}/v1/payments/${pay.paymentId}/cancel`, { method: 'POST', headers: mh });
  await Promise.all(polls);
  const allAnsweredMs = lastAnswerAt - t0;
  await stats.end();

  console.log(`\nlong-polls waiting on one process: ${N}`);
  console.log(`answered before the change (should be 0): ${answeredBeforeChange}`);
  console.log(`state change -> all ${N} answered: ${fmt(allAnsweredMs)} ms (cancel ${cancel.status})`);
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
