import { createDb } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';
import { eventually } from '../support/eventually';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { creationsWaitingOnLocks } from '../support/locks';
import { scrapedValue } from '../support/prometheus';
import { client, newAccount, Res, startTestService, TestService } from '../support/service';
import { stoppablePostgres, StoppablePostgres } from '../support/stoppablePostgres';

// The database failing under a running service: the contract promises 503 service_unavailable with
// Retry-After (clients retry), never a 500, and answers within seconds, never a hanging request.

const expectUnavailable = (r: Res, ms: number, limitMs: number) => {
  expect({ status: r.status, body: r.body, retryAfter: r.headers.get('retry-after') }).toEqual({
    status: 503,
    body: { code: 'service_unavailable', message: expect.any(String), requestId: r.headers.get('request-id') },
    retryAfter: '5',
  });
  expect(r.headers.get('request-id')).toMatch(/^req_/);
  expect(ms).toBeLessThan(limitMs);
};

const timed = async (call: () => Promise<Res>): Promise<[Res, number]> => {
  const started = Date.now();
  const r = await call();
  return [r, Date.now() - started];
};

describe('PostgreSQL stopped and started again', () => {
  let pg: StoppablePostgres;
  let svc: TestService | undefined;
  let overTcp: TestService | undefined;
  afterAll(async () => {
    await svc?.close();
    await overTcp?.close();
    await pg?.close();
  });

  it('every call answers 503 service_unavailable with Retry-After within seconds; once it is back, 200 again', async () => {
    pg = await stoppablePostgres('paygate_outage');
    const migrator = createDb(pg.url, 2);
    await migrateLatest(migrator);
    await migrator.destroy();
    const acct = await newAccount('Outage', pg.url);
    const other = await newAccount('Outage, not cached', pg.url);
    svc = await startTestService({ DATABASE_URL: pg.url, DB_ACQUIRE_TIMEOUT_MS: '2000' });
    // The test cluster is reached over a Unix socket (the URL's `host` folder): a server that is down has no socket
    // file (ENOENT). A second service reaches it over TCP, where a server that is down refuses (ECONNREFUSED).
    const tcpUrl = new URL(pg.url);
    tcpUrl.searchParams.delete('host');
    expect(tcpUrl.hostname).toBe('127.0.0.1');
    overTcp = await startTestService({ DATABASE_URL: tcpUrl.toString(), DB_ACQUIRE_TIMEOUT_MS: '2000' });
    expect((await client(overTcp.url, { 'Api-Key': acct.apiKey })('GET', '/v1/merchants')).status).toBe(200);
    const api = client(svc.url, { 'Api-Key': acct.apiKey });
    const merchant = (name: string, key: string) =>
      api('POST', '/v1/merchants', { body: { merchantName: name, merchantEmail: 'o@x.io' }, headers: { 'Idempotency-Key': key } });
    expect((await api('GET', '/v1/merchants')).status).toBe(200);
    expect((await merchant('Before', uniqueKey())).status).toBe(201);

    await pg.halt();
    const retried = uniqueKey('outage');
    // A read, an idempotent create, a key the cache has never seen (auth itself needs the database: 503,
    // not 401), the gateway, and readiness.
    expectUnavailable(...(await timed(() => api('GET', '/v1/merchants'))), 4000);
    expectUnavailable(...(await timed(() => merchant('During', retried))), 4000);
    expectUnavailable(...(await timed(() => client(svc!.url, { 'Api-Key': other.apiKey })('GET', '/v1/merchants'))), 4000);
    expectUnavailable(...(await timed(() => api('GET', '/v1/gateway/payment/pay_unknown'))), 4000);
    expectUnavailable(...(await timed(() => client(svc!.url)('GET', '/readyz'))), 4000);
    expectUnavailable(...(await timed(() => client(overTcp!.url, { 'Api-Key': acct.apiKey })('GET', '/v1/merchants'))), 4000);
    expectUnavailable(...(await timed(() => client(overTcp!.url)('GET', '/readyz'))), 4000);
    // Payment creations sent together (without Idempotency-Key they share statements, src/db/coalesce.ts): each
    // gets its 503, those that waited for another's statement too.
    const asMerchant = client(svc.url, { 'Api-Key': acct.apiKey, 'Merchant-Id': 'mrch_outage' });
    const started = Date.now();
    const creations = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        asMerchant('POST', '/v1/payments', { body: { referenceId: `outage-${i}`, amount: { unit: 'iso4217/USD', value: '100' } } }),
      ),
    );
    for (const r of creations) expectUnavailable(r, Date.now() - started, 4000);

    await pg.resume();
    const back = await eventually(
      () => api('GET', '/v1/merchants'),
      (r) => r.status === 200,
      15_000,
      200,
    );
    expect(back.status).toBe(200);
    expect(back.body.merchants.map((m: any) => m.name)).toEqual(['Before']);
    // The key refused during the outage was not used up: the create runs now, once.
    const created = await merchant('During', retried);
    expect(created.status).toBe(201);
    expect((await merchant('During', retried)).headers.get('idempotent-replayed')).toBe('true');
    expect((await api('GET', '/v1/merchants')).body.merchants.map((m: any) => m.name).sort()).toEqual(['Before', 'During']);
    expect((await client(svc.url)('GET', '/readyz')).status).toBe(200);
  }, 120_000);
});

describe('a stalled database', () => {
  let svc: TestService;
  let api: ReturnType<typeof client>;
  let merchantId: string;
  // Another session holding the merchant's row, as a long transaction or a lock would.
  let locker: ReturnType<typeof createDb>;
  const lockMerchant = async () => {
    const trx = await locker.transaction();
    await trx('merchants').where({ id: merchantId }).forUpdate();
    return trx;
  };
  const rename = (name: string) => api('PATCH', `/v1/merchants/${merchantId}`, { body: { merchantName: name } });
  beforeAll(async () => {
    // A pool of 2 that waits half a second for a connection; statements may run 3 s.
    svc = await startTestService({ DB_STATEMENT_TIMEOUT_MS: '3000', DB_POOL_MAX: '2', DB_ACQUIRE_TIMEOUT_MS: '500' });
    locker = createDb(process.env.DATABASE_URL!, 4); // two locks held at once, and reads beside them
    const acct = await newAccount('Stalled');
    api = client(svc.url, { 'Api-Key': acct.apiKey });
    merchantId = (
      await api('POST', '/v1/merchants', {
        body: { merchantName: 'Locked', merchantEmail: 'l@x.io' },
        headers: { 'Idempotency-Key': uniqueKey() },
      })
    ).body.merchant.id;
  });
  afterAll(async () => {
    await svc?.close();
    await locker?.destroy();
  });

  it('a statement blocked past DB_STATEMENT_TIMEOUT_MS is 503 with Retry-After, and nothing changed', async () => {
    const trx = await lockMerchant();
    try {
      const [r, ms] = await timed(() => rename('Renamed'));
      expectUnavailable(r, ms, 6000);
      expect(ms).toBeGreaterThanOrEqual(2500); // the statement timeout, not the pool
    } finally {
      await trx.rollback();
    }
    expect((await svc.db('merchants').where({ id: merchantId }).first()).name).toBe('Locked');
    expect((await rename('Renamed')).status).toBe(200);
  });

  it('no free connection within DB_ACQUIRE_TIMEOUT_MS is 503 with Retry-After', async () => {
    const trx = await lockMerchant();
    let blocked: Promise<Res>[];
    try {
      // Both connections of the service's pool wait on the lock...
      blocked = [1, 2].map((i) => rename(`Queued ${i}`));
      await new Promise((r) => setTimeout(r, 300));
      // ...so another request finds none within 500 ms.
      expectUnavailable(...(await timed(() => api('GET', `/v1/merchants/${merchantId}`))), 2000);
    } finally {
      await trx.rollback();
    }
    expect((await Promise.all(blocked)).map((r) => r.status)).toEqual([200, 200]);
    expect((await api('GET', `/v1/merchants/${merchantId}`)).status).toBe(200);
  });

  it("creations whose statement runs past DB_STATEMENT_TIMEOUT_MS are tried one at a time: only the blocked merchant's get 503", async () => {
    const held = await merchantWithSettlement(svc, 'Held');
    const blocked = await merchantWithSettlement(svc, 'Blocked');
    const free = await merchantWithSettlement(svc, 'Free');
    const tag = uniqueKey('timeout');
    const pay = (c: ReturnType<typeof client>, ref: string) =>
      c('POST', '/v1/payments', { body: { referenceId: ref, amount: { unit: 'iso4217/USD', value: '100' } } });
    const lock = async (id: string) => {
      const trx = await locker.transaction();
      await trx('merchants').where({ id }).forUpdate().select('id');
      return trx;
    };
    const heldLock = await lock(held.merchantId);
    const blockedLock = await lock(blocked.merchantId);
    try {
      // Two creations for the held merchant take both statements of creation (their foreign-key checks wait)...
      const first = [0, 1].map((i) => pay(held.asMerchant, `${tag}-held-${i}`));
      expect(
        await eventually(
          () => creationsWaitingOnLocks(locker),
          (n) => n === 2,
          10_000,
        ),
      ).toBe(2);
      // ...so these wait, and go together once the held merchant is let go: one for the blocked merchant among four.
      const refs = [0, 1, 2, 3, 4].map((i) => `${tag}-${i}`);
      const mixed = refs.map((ref, i) => pay(i === 2 ? blocked.asMerchant : free.asMerchant, ref));
      const waiting = () => scrapedValue(svc.directUrl, 'paygate_payment_creations_waiting');
      expect(await eventually(waiting, (n) => n === 5, 10_000)).toBe(5);
      await heldLock.commit();
      expect((await Promise.all(first)).map((r) => r.status)).toEqual([201, 201]);
      // Their statement waits for the blocked merchant's row until the statement timeout; then each is tried alone.
      const answers = await Promise.all(mixed);
      expect(answers.map((r) => [r.status, r.body.code])).toEqual([
        [201, undefined],
        [201, undefined],
        [503, 'service_unavailable'],
        [201, undefined],
        [201, undefined],
      ]);
      expect((await locker('payments').whereIn('reference_id', refs).pluck('reference_id')).sort()).toEqual(refs.filter((_, i) => i !== 2));
    } finally {
      if (!heldLock.isCompleted()) await heldLock.rollback();
      await blockedLock.rollback();
    }
  }, 60_000);

  it('reads of payments whose statement runs past DB_STATEMENT_TIMEOUT_MS all get 503 with it, not one timeout after another', async () => {
    const shop = await merchantWithSettlement(svc, 'Reads');
    const created = await shop.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('r'), amount: { unit: 'iso4217/USD', value: '100' } },
    });
    expect(created.status).toBe(201);
    const trx = await locker.transaction();
    try {
      await trx.raw('LOCK TABLE assets IN ACCESS EXCLUSIVE MODE'); // the read joins it
      const started = Date.now();
      const reads = await Promise.all(
        Array.from({ length: 6 }, () => shop.asMerchant('GET', `/v1/payments/${created.body.paymentId}/status`)),
      );
      // Two statements time out (3 s); the reads waiting behind them are answered with them, not retried one by one.
      for (const r of reads) expectUnavailable(r, Date.now() - started, 7000);
    } finally {
      await trx.rollback();
    }
    expect((await shop.asMerchant('GET', `/v1/payments/${created.body.paymentId}/status`)).status).toBe(200);
  }, 60_000);
});
