import { randomBytes } from 'node:crypto';
import { generatePrivateKey } from 'viem/accounts';
import { createDb } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';
import { DEVNET_USDC, newWallet } from '../support/chain';
import { uniqueKey } from '../support/fixtures';
import { freshDatabase } from '../support/freshDb';
import { parseExposition } from '../support/prometheus';
import { client, newAccount, startTestService, TestService } from '../support/service';
import { spawnService } from '../support/serviceProcess';

// /metrics is an operational endpoint outside the API document: every request here goes to the service
// directly (svc.directUrl), never through the contract gate's validating proxy.

const usd = (value = '1000') => ({ unit: 'iso4217/USD', value });

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

  it('METRICS_TOKEN: /metrics needs the bearer token (401 invalid_token otherwise); health stays open', async () => {
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

  it('paygate_payments counts payments by effective status, read from PostgreSQL and cached', async () => {
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

  it('without METRICS_TOKEN the built service refuses to start (configuration error, exit 2)', async () => {
    await expect(spawnService(prod())).rejects.toThrow(
      /^service exited \(2\) before listening: configuration error: METRICS_TOKEN is required in production \(or set METRICS_PUBLIC=true/,
    );
  });

  it('METRICS_PUBLIC=true serves it without a token, as asked', async () => {
    const s = await startTestService({ ...prod(), METRICS_PUBLIC: 'true' });
    try {
      const r = await client(s.url)('GET', '/metrics');
      expect(r.status).toBe(200);
      expect(r.text).toContain('paygate_http_requests_total');
    } finally {
      await s.close();
    }
  }, 60_000);
});
