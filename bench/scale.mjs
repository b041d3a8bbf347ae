// Scale-out on one machine: the service as 1 and as 2 processes (PROCESSES, node:cluster) on one PostgreSQL,
// measured in the same run with the same load (POST /v1/payments, GET /v1/payments/{id}/status), and the
// ratio the second process buys. On a 2-core machine PostgreSQL and the load generator share the cores.
// Run: make bench-scale   (BENCH_SECONDS=10 by default)
import {
  LIFTED_LIMITS,
  benchMerchant,
  fmt,
  freePort,
  load,
  node,
  serviceEnv,
  startBenchChain,
  startChild,
  startPostgres,
  stopChild,
} from './lib.mjs';

const pg = await startPostgres();
const chain = await startBenchChain();
try {
  node('dist/src/cli/migrate.js', { DATABASE_URL: pg.url });
  const acct = JSON.parse(node('dist/src/cli/admin.js', { DATABASE_URL: pg.url }, ['accounts', 'create', '--name', 'Bench']));
  const results = [];
  for (const processes of [1, 2]) {
    const port = await freePort();
    const child = await startChild(
      'dist/src/main.js',
      { ...serviceEnv(pg.url, port, chain), ...LIFTED_LIMITS, PROCESSES: String(processes) },
      `http://127.0.0.1:${port}/readyz`,
    );
    try {
      const svc = `http://127.0.0.1:${port}`;
      // Every process answers before the load starts (the port is shared: readiness of one says little).
      for (let i = 0; i < 50; i++) await (await fetch(`${svc}/readyz`)).text();
      const { headers, body, paymentId } = await benchMerchant(svc, acct.apiKey, chain);
      await load({ url: `${svc}/v1/payments/${paymentId}/status`, headers, duration: 2 });
      const create = await load({ url: `${svc}/v1/payments`, method: 'POST', body, headers });
      const status = await load({ url: `${svc}/v1/payments/${paymentId}/status`, headers });
      results.push({ processes, create, status });
    } finally {
      await stopChild(child);
    }
  }
  const [one, two] = results;
  console.log('\noperation | 1 process req/s (p50/p99 ms) | 2 processes req/s (p50/p99 ms) | ratio 2/1 | errors');
  for (const op of ['create', 'status']) {
    const a = one[op];
    const b = two[op];
    console.log(
      `${op} | ${fmt(a.rps)} (${a.p50}/${a.p99}) | ${fmt(b.rps)} (${b.p50}/${b.p99}) | ${fmt(b.rps / a.rps)} | ${a.errors}/${b.errors}`,
    );
  }
} finally {
  await chain.stop();
  await pg.stop();
}
