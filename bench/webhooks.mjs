// Webhook delivery benchmark (not a test; make bench-webhooks): N payments created through the API, each event delivered by the
// service to an HTTPS receiver on loopback. Reports deliveries per second and the latency from the change
// (event createdAt) to its arrival, against a baseline measured in the same run: the same receiver taking
// plain signed-size HTTPS POSTs straight from this process, with the same concurrency (what the network and
// the receiver alone allow). Run: make build && node bench/webhooks.mjs   (BENCH_EVENTS, default 2000)
import fs from 'node:fs';
import https from 'node:https';
import knex from 'knex';
import { ensureTestTls } from '../scripts/test-tls.mjs';
import { LIFTED_LIMITS, fmt, freePort, node, serviceEnv, startBenchChain, startChild, startPostgres, stopChild } from './lib.mjs';

const N = Number(process.env.BENCH_EVENTS || 2000);
const CONCURRENCY = 16; // the baseline's sockets, and the service's in-flight caps unless set in the environment
// The service's caps per endpoint and per account (defaults 4 and 8) bound one endpoint's rate by its
// receiver's response time: to compare the pipeline with the baseline, the bench gives the one endpoint the
// baseline's concurrency. WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT=4 WEBHOOK_MAX_IN_FLIGHT_PER_ACCOUNT=8 measures the defaults.
const CAPS = {
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: process.env.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT || String(CONCURRENCY),
  WEBHOOK_MAX_IN_FLIGHT_PER_ACCOUNT: process.env.WEBHOOK_MAX_IN_FLIGHT_PER_ACCOUNT || String(CONCURRENCY),
};

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function main() {
  const tls = ensureTestTls();
  const arrivals = new Map(); // webhook-id -> ms
  const byPayment = new Map(); // paymentId -> webhook-id
  const waitForDelivery = async (paymentId) => {
    for (;;) {
      if (byPayment.has(paymentId)) return byPayment.get(paymentId);
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  const server = https.createServer({ key: fs.readFileSync(tls.key), cert: fs.readFileSync(tls.cert) }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      arrivals.set(req.headers['webhook-id'] ?? `base-${arrivals.size}`, Date.now());
      if (String(req.headers['webhook-id']).startsWith('evt_'))
        byPayment.set(JSON.parse(Buffer.concat(chunks)).data.payment.paymentId, req.headers['webhook-id']);
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const hookUrl = `https://127.0.0.1:${server.address().port}/hooks`;

  // Baseline: the receiver alone, fed by a keep-alive client with the service's concurrency.
  const agent = new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY, ca: fs.readFileSync(tls.cert) });
  const body = JSON.stringify({
    id: 'evt_x',
    type: 'payment.created',
    createdAt: new Date().toISOString(),
    apiVersion: '2026-02-19.preview',
    data: { payment: { pad: 'x'.repeat(600) } },
  });
  const post = (i) =>
    new Promise((resolve, reject) => {
      const req = https.request(
        hookUrl,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'webhook-id': `base-${i}`, 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' },
        },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  let next = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < N) await post(next++);
    }),
  );
  const baselineRate = N / ((Date.now() - t0) / 1000);
  agent.destroy();
  arrivals.clear();

  const pg = await startPostgres();
  const chain = await startBenchChain();
  const port = await freePort();
  const env = {
    ...serviceEnv(pg.url, port, chain),
    ...LIFTED_LIMITS,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_CA_FILE: tls.cert,
    WEBHOOK_DISPATCH_INTERVAL_MS: '200',
    ...CAPS,
  };
  node('dist/src/cli/migrate.js', env);
  const acct = JSON.parse(node('dist/src/cli/admin.js', env, ['accounts', 'create', '--name', 'Bench']));
  const child = await startChild('dist/src/main.js', env, `http://127.0.0.1:${port}/readyz`);
  const base = `http://127.0.0.1:${port}`;
  try {
    const call = async (method, p, b, headers = {}) => {
      const r = await fetch(base + p, {
        method,
        body: b && JSON.stringify(b),
        headers: { 'content-type': 'application/json', 'Api-Key': acct.apiKey, ...headers },
      });
      if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${await r.text()}`);
      return r.json();
    };
    const m = await call(
      'POST',
      '/v1/merchants',
      { merchantName: 'Bench', merchantEmail: 'bench@example.com' },
      { 'Idempotency-Key': 'bench-m' },
    );
    await call(
      'POST',
      `/v1/merchants/${m.merchant.id}/settlements/crypto`,
      {
        settlements: [
          {
            asset: chain.asset,
            destination: `${chain.asset.split('/')[0]}:0x52908400098527886E0F7030069857D2E4169EE7`,
          },
        ],
      },
      { 'Idempotency-Key': 'bench-s' },
    );
    await call(
      'POST',
      '/v1/webhook-endpoints',
      { url: hookUrl, enabledEvents: ['payment.created'] },
      { 'Idempotency-Key': 'bench-w', 'PAY-Version': '2026-02-19.preview' },
    );

    // Latency alone first: 50 payments one at a time, 100 ms apart, each delivery on an idle pipeline.
    const idle = [];
    for (let i = 0; i < 50; i++) {
      const r = await call(
        'POST',
        '/v1/payments',
        { referenceId: `idle${i}`, amount: { unit: 'iso4217/USD', value: '100' } },
        { 'Merchant-Id': m.merchant.id },
      );
      const sent = Date.now();
      const evt = await waitForDelivery(r.paymentId);
      idle.push(arrivals.get(evt) - sent);
      await new Promise((res) => setTimeout(res, 100));
    }
    arrivals.clear();

    // The events: N payments, 20 at a time (creation itself is measured by make bench).
    let made = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (made < N) {
          made++;
          await call(
            'POST',
            '/v1/payments',
            { referenceId: `b${made}`, amount: { unit: 'iso4217/USD', value: '100' } },
            { 'Merchant-Id': m.merchant.id },
          );
        }
      }),
    );
    const createdBy = Date.now();
    const deadline = Date.now() + 120_000;
    while (arrivals.size < N && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const finished = Math.max(...arrivals.values());
    const delivered = arrivals.size;
    const rate = delivered / ((finished - started) / 1000);
    // Latency per event: arrival minus the event's commit time (read back from the events table).
    const latencies = [];
    const db = knex({ client: 'pg', connection: pg.url });
    const rows = await db('payment_events').select('id', 'created_at');
    for (const r of rows) if (arrivals.has(r.id)) latencies.push(arrivals.get(r.id) - new Date(r.created_at).getTime());
    // Backlog drain: N events written straight into the outbox in one statement (as if N changes had just
    // committed while nothing was delivering), then the time until the receiver has them all.
    // The statistics a running service has: taken while delivery kept up (autovacuum analyzes the table in the
    // steady state, when nearly every delivery has succeeded), not by chance in the middle of the burst above.
    await db.raw('ANALYZE webhook_deliveries');
    arrivals.clear();
    const drainStart = Date.now();
    // Copies of one real event (its stored columns as they are), each a new event id.
    // Queued as the service queues its own (src/db/payments/changes.ts).
    await db.raw(
      `WITH e AS (
        INSERT INTO payment_events (id, payment_id, account_id, type, version, data, record, dispatched_at)
        SELECT 'evt_drain' || g, e.payment_id, e.account_id, 'payment.created', 1000 + g, e.data, e.record, now()
        FROM generate_series(1, ?) g, (SELECT * FROM payment_events ORDER BY created_at LIMIT 1) e
        RETURNING id, account_id, type
      ) INSERT INTO payment_event_outbox (event_id, account_id, type) SELECT id, account_id, type FROM e`,
      [N],
    );
    const drainDeadline = Date.now() + 120_000;
    while (arrivals.size < N && Date.now() < drainDeadline) await new Promise((r) => setTimeout(r, 20));
    const drainRate = arrivals.size / ((Math.max(...arrivals.values()) - drainStart) / 1000);
    await db.destroy();

    console.log(
      `webhooks (in flight per endpoint ${CAPS.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT}, per account ${CAPS.WEBHOOK_MAX_IN_FLIGHT_PER_ACCOUNT}): ${delivered}/${N} events delivered; creation took ${fmt((createdBy - started) / 1000)} s, last delivery ${fmt((finished - createdBy) / 1000)} s after the last creation`,
    );
    console.log(`  baseline (receiver alone, ${CONCURRENCY} keep-alive sockets): ${fmt(baselineRate)} POST/s`);
    console.log(
      `  paygate, ${N} events created through the API (20 concurrent creates): ${fmt(rate)} deliveries/s (${finished - createdBy < 1000 ? 'keeps pace with creation' : 'behind creation'})`,
    );
    console.log(
      `  paygate draining a backlog of ${N} outbox events (dispatch -> claim -> signed POST -> batched record): ${fmt(drainRate)} deliveries/s, ratio ${fmt(drainRate / baselineRate)}`,
    );
    console.log(`  idle pipeline, one payment at a time: response -> arrival p50 ${pct(idle, 50)} ms, p99 ${pct(idle, 99)} ms`);
    console.log(
      `  under load, change -> arrival latency: p50 ${pct(latencies, 50)} ms, p99 ${pct(latencies, 99)} ms, max ${Math.max(...latencies)} ms`,
    );
  } finally {
    await stopChild(child);
    server.close();
    await chain.stop();
    await pg.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
