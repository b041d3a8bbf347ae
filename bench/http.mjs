// Throughput of the hot merchant endpoints against baselines measured in the same run on the same
// PostgreSQL: (a) Koa + one knex INSERT vs POST /v1/payments, (b) Koa + one SELECT by primary key vs
// GET /v1/payments/{id}/status. Prints requests/s, p50/p99 and the ratio to the baseline.
// Run: make bench   (BENCH_SECONDS=10 by default)
import pgLib from 'pg';
import {
  LIFTED_LIMITS,
  benchMerchant,
  fmt,
  freePort,
  load,
  node,
  root,
  serviceEnv,
  startBenchChain,
  startChild,
  startPostgres,
  stopChild,
} from './lib.mjs';

const pg = await startPostgres();
const chain = await startBenchChain();
const children = [];
try {
  node('dist/src/cli/migrate.js', { DATABASE_URL: pg.url });
  const acct = JSON.parse(node('dist/src/cli/admin.js', { DATABASE_URL: pg.url }, ['accounts', 'create', '--name', 'Bench']));
  const svcPort = await freePort();
  const basePort = await freePort();
  const env = { DATABASE_URL: pg.url, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  // One credential sends everything: its per-second rate limits (not what is measured here) are lifted, as the
  // baseline has none; counting each request against them still runs.
  children.push(
    await startChild('dist/src/main.js', { ...serviceEnv(pg.url, svcPort, chain), ...LIFTED_LIMITS }, `http://127.0.0.1:${svcPort}/readyz`),
  );
  children.push(await startChild('bench/baseline-server.mjs', { ...env, PORT: String(basePort) }, `http://127.0.0.1:${basePort}/`));
  const svc = `http://127.0.0.1:${svcPort}`;
  const { headers: mh, body, paymentId } = await benchMerchant(svc, acct.apiKey, chain);

  // Warm both servers up, then measure each pair back to back.
  await load({ url: `${svc}/v1/payments/${paymentId}/status`, headers: mh, duration: 2 });
  await load({ url: `http://127.0.0.1:${basePort}/`, duration: 2 });
  const rows = [];
  const pair = async (name, base, ours) => {
    const b = await load(base);
    const o = await load(ours);
    rows.push({ name, b, o });
  };
  await pair(
    'create',
    { url: `http://127.0.0.1:${basePort}/`, method: 'POST', body, headers: { 'content-type': 'application/json' } },
    { url: `${svc}/v1/payments`, method: 'POST', body, headers: mh },
  );
  // Each pair starts on a quiet service: the payment.created events of the creation pair are fanned out first
  // (by the service's dispatcher, in the background), not during the next pair's measurement.
  const db = new pgLib.Client({ connectionString: pg.url });
  await db.connect();
  for (let t = Date.now(); Date.now() - t < 120_000; await new Promise((r) => setTimeout(r, 200))) {
    if (Number((await db.query('SELECT count(*) AS n FROM payment_event_outbox')).rows[0].n) === 0) break;
  }
  await db.end();
  await pair('status', { url: `http://127.0.0.1:${basePort}/` }, { url: `${svc}/v1/payments/${paymentId}/status`, headers: mh });

  console.log('\noperation | baseline req/s (p50/p99 ms) | paygate req/s (p50/p99 ms) | ratio | errors');
  for (const { name, b, o } of rows) {
    console.log(
      `${name} | ${fmt(b.rps)} (${b.p50}/${b.p99}) | ${fmt(o.rps)} (${o.p50}/${o.p99}) | ${fmt(o.rps / b.rps)} | ${b.errors}/${o.errors}`,
    );
  }
} finally {
  for (const c of children) await stopChild(c);
  await chain.stop();
  await pg.stop();
}
void root;
