// Throughput of the hot merchant endpoints against baselines measured in the same run on the same
// PostgreSQL: (a) Koa + one knex INSERT vs POST /v1/payments, (b) Koa + one SELECT by primary key vs
// GET /v1/payments/{id}/status. Prints requests/s, p50/p99 and the ratio to the baseline.
// Run: make bench   (BENCH_SECONDS=10 by default)
import { fmt, freePort, load, node, root, serviceEnv, startChild, startPostgres, stopChild } from './lib.mjs';

const pg = await startPostgres();
const children = [];
try {
  node('dist/src/cli/migrate.js', { DATABASE_URL: pg.url });
  const acct = JSON.parse(node('dist/src/cli/admin.js', { DATABASE_URL: pg.url }, ['accounts', 'create', '--name', 'Bench']));
  const svcPort = await freePort();
  const basePort = await freePort();
  const env = { DATABASE_URL: pg.url, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  children.push(await startChild('dist/src/main.js', serviceEnv(pg.url, svcPort), `http://127.0.0.1:${svcPort}/readyz`));
  children.push(await startChild('bench/baseline-server.mjs', { ...env, PORT: String(basePort) }, `http://127.0.0.1:${basePort}/`));
  const svc = `http://127.0.0.1:${svcPort}`;
  const h = { 'Api-Key': acct.apiKey, 'content-type': 'application/json' };
  const m = await (
    await fetch(`${svc}/v1/merchants`, {
      method: 'POST',
      headers: { ...h, 'Idempotency-Key': 'bench' },
      body: JSON.stringify({ merchantName: 'Bench', merchantEmail: 'b@x.io' }),
    })
  ).json();
  const merchantId = m.merchant.id;
  await fetch(`${svc}/v1/merchants/${merchantId}/settlements/crypto`, {
    method: 'POST',
    headers: { ...h, 'Idempotency-Key': 'bench-s' },
    body: JSON.stringify({
      settlements: [
        {
          asset: 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          destination: 'eip155:8453:0x52908400098527886E0F7030069857D2E4169EE7',
        },
      ],
    }),
  });
  const mh = { ...h, 'Merchant-Id': merchantId };
  const body = JSON.stringify({
    referenceId: 'order-bench',
    amount: { unit: 'iso4217/USD', value: '1000' },
    expiresAt: Math.floor(Date.now() / 1000) + 86400,
  });
  const pay = await (await fetch(`${svc}/v1/payments`, { method: 'POST', headers: mh, body })).json();

  // Warm both servers up, then measure each pair back to back.
  await load({ url: `${svc}/v1/payments/${pay.paymentId}/status`, headers: mh, duration: 2 });
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
  await pair('status', { url: `http://127.0.0.1:${basePort}/` }, { url: `${svc}/v1/payments/${pay.paymentId}/status`, headers: mh });

  console.log('\noperation | baseline req/s (p50/p99 ms) | paygate req/s (p50/p99 ms) | ratio | errors');
  for (const { name, b, o } of rows) {
    console.log(
      `${name} | ${fmt(b.rps)} (${b.p50}/${b.p99}) | ${fmt(o.rps)} (${o.p50}/${o.p99}) | ${fmt(o.rps / b.rps)} | ${b.errors}/${o.errors}`,
    );
  }
} finally {
  for (const c of children) await stopChild(c);
  await pg.stop();
}
void root;
