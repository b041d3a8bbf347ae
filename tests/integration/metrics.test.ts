import { migrateLatest } from '../../src/db/migrate';
import { createDb } from '../../src/db/knex';
import { client, newAccount, startTestService, TestService, itOwn } from '../support/service';
import { freshDatabase } from '../support/freshDb';
import { parseExposition, sampleValue } from '../support/prometheus';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { DEVNET_USDC, newWallet } from '../support/chain';
import { randomBytes } from 'node:crypto';
import { generatePrivateKey } from 'viem/accounts';
import { spawnService } from '../support/serviceProcess';

// /metrics is an operational endpoint outside the API document: every request here goes to the service
// directly (svc.directUrl), never through the contract gate's validating proxy.

const usd = (value = '1000') => ({ unit: 'iso4217/USD', value });

describe('GET /metrics on the shared test service', () => {
  let svc: TestService;
  let m: Awaited<ReturnType<typeof merchantWithSettlement>>;
  let anon: ReturnType<typeof client>;
  const scrape = async () => {
    const r = await anon('GET', '/metrics');
    expect(r.status).toBe(200);
    return parseExposition(r.text);
  };

  beforeAll(async () => {
    svc = await startTestService();
    m = await merchantWithSettlement(svc, 'Metrics');
    anon = client(svc.directUrl);
  }, 60_000); // starts a service (and the admin command): slow on a busy machine
  afterAll(() => svc.close());

  it('answers the Prometheus text format with the service metrics and the default process metrics', async () => {
    const r = await anon('GET', '/metrics');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const line of [
      '# TYPE paygate_http_requests_total counter',
      '# TYPE paygate_http_request_duration_seconds histogram',
      '# TYPE paygate_payments gauge',
      '# TYPE paygate_longpoll_waiters gauge',
      '# TYPE process_cpu_user_seconds_total counter',
      '# TYPE nodejs_eventloop_lag_seconds gauge',
    ])
      expect(r.text).toContain(line);
    const samples = parseExposition(r.text); // throws on any line that is not a sample or a comment
    for (const s of ['requires_action', 'processing', 'succeeded', 'failed', 'expired', 'cancelled']) {
      expect(samples.some((x) => x.name === 'paygate_payments' && x.labels.status === s)).toBe(true);
    }
  });

  it('counts requests per operationId, method and status (never by raw path) and times them', async () => {
    const before = await scrape();
    const ops = [
      { operation: 'listMerchants', method: 'GET', status: '200' },
      { operation: 'listMerchants', method: 'GET', status: '401' },
      { operation: 'getMerchant', method: 'GET', status: '200' },
      { operation: 'unmatched', method: 'GET', status: '404' },
      { operation: 'healthz', method: 'GET', status: '200' },
    ];
    for (let i = 0; i < 3; i++) expect((await m.api('GET', '/v1/merchants')).status).toBe(200);
    expect((await anon('GET', '/v1/merchants')).status).toBe(401); // counted under its operation, before auth
    expect((await m.api('GET', `/v1/merchants/${m.merchantId}`)).status).toBe(200);
    expect((await anon('GET', '/no/such/path/here')).status).toBe(404);
    expect((await anon('GET', '/healthz')).status).toBe(200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
    expect(ops.map((l) => delta('paygate_http_requests_total', l))).toEqual([3, 1, 1, 1, 1]);
    expect(ops.map((l) => delta('paygate_http_request_duration_seconds_count', l))).toEqual([3, 1, 1, 1, 1]);
    expect(delta('paygate_http_request_duration_seconds_bucket', { ...ops[0], le: '+Inf' })).toBe(3);
    expect(delta('paygate_http_request_duration_seconds_sum', ops[0])).toBeGreaterThan(0);
    // No label value carries a path (ids in paths would make one series per resource).
    expect(after.filter((s) => s.name.startsWith('paygate_http_')).some((s) => s.labels.operation?.includes('/'))).toBe(false);
  });

  it('paygate_longpoll_waiters goes up while a long-poll waits and back down when it answers', async () => {
    const waiters = async () => sampleValue(await scrape(), 'paygate_longpoll_waiters');
    const base = await waiters();
    const created = await m.asMerchant('POST', '/v1/payments', { body: { referenceId: uniqueKey('lp'), amount: usd() } });
    expect(created.status).toBe(201);
    const id = created.body.paymentId as string;
    const poll = m.asMerchant('GET', `/v1/payments/${id}/status?maxPollMs=20000`);
    const deadline = Date.now() + 5000;
    while ((await waiters()) !== base + 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await waiters()).toBe(base + 1);
    expect((await m.asMerchant('POST', `/v1/payments/${id}/cancel`)).status).toBe(200);
    const answered = await poll;
    expect(answered.status).toBe(200);
    expect(answered.body.status).toBe('cancelled');
    expect(await waiters()).toBe(base);
  });
});

describe('a service on a database of its own', () => {
  let db: { url: string; drop(): Promise<void> };
  let svc: TestService;
  const TOKEN = 'scrape-token-0123456789abcdef';
  // Long enough that the setup between two scrapes fits in it on a busy machine (the test checks that it did).
  const CACHE_MS = 8000;

  beforeAll(async () => {
    db = await freshDatabase('paygate_metrics');
    const migrator = createDb(db.url, 2);
    await migrateLatest(migrator);
    await migrator.destroy();
    // No sweeper during the test: an overdue payment must count as expired by the reading rule alone.
    svc = await startTestService({
      DATABASE_URL: db.url,
      METRICS_TOKEN: TOKEN,
      METRICS_DB_CACHE_MS: String(CACHE_MS),
      SWEEP_INTERVAL_MS: '3600000',
    });
  }, 60_000); // starts a service (and the admin command): slow on a busy machine
  afterAll(async () => {
    await svc?.close();
    await db?.drop();
  });

  itOwn('METRICS_TOKEN: /metrics needs the bearer token (401 invalid_token otherwise); health stays open', async () => {
    const anon = client(svc.directUrl);
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: 'Bearer wrong-token-0123456789' },
      { Authorization: TOKEN },
      { Authorization: `Basic ${TOKEN}` },
    ]) {
      const r = await anon('GET', '/metrics', { headers });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ code: 'invalid_token', message: expect.any(String), requestId: r.headers.get('request-id') });
      expect(r.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    }
    const ok = await anon('GET', '/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('paygate_http_requests_total{operation="metrics",method="GET",status="401"} 4');
    expect((await anon('GET', '/healthz')).status).toBe(200);
    expect((await anon('GET', '/readyz')).status).toBe(200);
  });

  itOwn('paygate_payments counts payments by effective status, read from PostgreSQL and cached', async () => {
    const scrape = async () => {
      const r = await client(svc.directUrl, { Authorization: `Bearer ${TOKEN}` })('GET', '/metrics');
      expect(r.status).toBe(200);
      const samples = parseExposition(r.text);
      return Object.fromEntries(samples.filter((s) => s.name === 'paygate_payments').map((s) => [s.labels.status, s.value]));
    };
    const zero = { requires_action: 0, processing: 0, succeeded: 0, failed: 0, expired: 0, cancelled: 0 };
    const readAt = Date.now();
    expect(await scrape()).toEqual(zero);

    const acct = await newAccount('Metrics counts', db.url);
    const api = client(svc.url, { 'Api-Key': acct.apiKey });
    const merchant = await api('POST', '/v1/merchants', {
      body: { merchantName: 'Counted', merchantEmail: 'c@x.io' },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    const merchantId = merchant.body.merchant.id as string;
    const settled = await api('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
      body: { settlements: [{ asset: DEVNET_USDC, destination: `eip155:31337:${newWallet()}` }] },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    expect(settled.status).toBe(201);
    const shop = client(svc.url, { 'Api-Key': acct.apiKey, 'Merchant-Id': merchantId });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await shop('POST', '/v1/payments', { body: { referenceId: uniqueKey('count'), amount: usd() } });
      expect(r.status).toBe(201);
      ids.push(r.body.paymentId);
    }
    expect((await shop('POST', `/v1/payments/${ids[0]}/cancel`)).status).toBe(200);
    // Overdue but still requires_action in the table (no sweeper ran, nobody read it): counts as expired.
    await svc
      .db('payments')
      .where({ id: ids[1] })
      .update({ expires_at: svc.db.raw("now() - interval '1 second'") });

    // Within the cache period (counted from before the first scrape, so the cached read is younger): no new query.
    expect(Date.now() - readAt).toBeLessThan(CACHE_MS - 500);
    expect(await scrape()).toEqual(zero);
    await new Promise((r) => setTimeout(r, readAt + CACHE_MS + 1000 - Date.now()));
    expect(await scrape()).toEqual({ ...zero, requires_action: 1, cancelled: 1, expired: 1 });
    expect((await svc.db('payments').where({ id: ids[1] }).first()).status).toBe('requires_action');
  });
});

describe('/metrics in production', () => {
  const prod = () => ({
    NODE_ENV: 'production',
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    DEVNET_RELAYER_KEYS: generatePrivateKey(),
  });

  itOwn('without METRICS_TOKEN the built service refuses to start (configuration error, exit 2)', async () => {
    await expect(spawnService(prod())).rejects.toThrow(
      /^service exited \(2\) before listening: configuration error: METRICS_TOKEN is required in production \(or set METRICS_PUBLIC=true/,
    );
  });

  itOwn(
    'METRICS_PUBLIC=true serves it without a token, as asked',
    async () => {
      const s = await startTestService({ ...prod(), METRICS_PUBLIC: 'true' });
      try {
        const r = await client(s.url)('GET', '/metrics');
        expect(r.status).toBe(200);
        expect(r.text).toContain('paygate_http_requests_total');
      } finally {
        await s.close();
      }
    },
    60_000,
  );
});
