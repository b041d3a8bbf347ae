import { createDb } from '../../src/db/knex';
import { eventually } from '../support/eventually';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, startTestService, TestService } from '../support/service';
import { Receiver, startReceiver } from '../support/webhookReceiver';

// The dispatcher fans out new events when they are written, not on its timer: a payment's creation (which
// sends no change notification) and its later changes (which do) reach the partner's endpoint while the
// timer is an hour away in effect (60 s, its longest setting: longer than any wait here). Its own file: the
// only service working this database's outbox must be the one with the long timer.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };

/** A partner with a merchant and one endpoint at `url` for `events`: its merchant client and an order body. */
async function shop(service: TestService, name: string, url: string, events: string[]) {
  const m = await merchantWithSettlement(service, name);
  const hooks = client(service.directUrl, { 'Api-Key': m.apiKey, ...PREVIEW });
  const ep = await hooks('POST', '/v1/webhook-endpoints', {
    body: { url, enabledEvents: events },
    headers: { 'Idempotency-Key': uniqueKey() },
  });
  expect(ep.status).toBe(201);
  const asMerchant = client(service.directUrl, { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId, ...PREVIEW });
  const order = () => ({ body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '100' } } });
  return { asMerchant, order };
}

/**
 * `n` changes committed at once, as a busy partner's would be: copies of the payment's event, ids `<prefix><i>`.
 * `queued`: written as this release writes events (marked at write, queued in payment_event_outbox); `unmarked`:
 * as the release before the outbox did (dispatched_at NULL, no queue row), which a rolling deploy still sees.
 */
async function burst(
  db: TestService['db'],
  prefix: string,
  n: number,
  paymentId: string,
  how: 'queued' | 'unmarked' = 'queued',
  firstVersion = 101,
) {
  await db.raw(
    `WITH e AS (
       INSERT INTO payment_events (id, payment_id, account_id, type, version, data, record, dispatched_at)
       SELECT ? || g, e.payment_id, e.account_id, e.type, ? - 1 + g, e.data, e.record, CASE WHEN ? THEN now() END
       FROM generate_series(1, ?) g, (SELECT * FROM payment_events WHERE payment_id = ? ORDER BY version LIMIT 1) e
       RETURNING id, account_id, type
     ) INSERT INTO payment_event_outbox (event_id, account_id, type) SELECT id, account_id, type FROM e WHERE ?`,
    [prefix, firstVersion, how === 'queued', n, paymentId, how === 'queued'],
  );
}

describe('webhook dispatch on write', () => {
  let svc: TestService;
  let rx: Receiver;
  beforeAll(async () => {
    svc = await startTestService({ WEBHOOK_DISPATCH_INTERVAL_MS: '60000' });
    rx = await startReceiver();
  }, 60_000); // starts a service (and the admin command): slow on a busy machine
  afterAll(async () => {
    await rx?.close();
    await svc?.close();
  });

  it('delivers payment.created and payment.cancelled without waiting for the dispatch timer', async () => {
    const { asMerchant } = await shop(svc, 'Prompt Shop', rx.url, ['payment.created', 'payment.cancelled']);
    // The service's first pass (at its start) is behind us: from here only writes can start one.
    await new Promise((r) => setTimeout(r, 300));

    // Created without and with an Idempotency-Key (the second commits after the handler returns).
    const created: string[] = [];
    for (const headers of [{}, { 'Idempotency-Key': uniqueKey() }] as Record<string, string>[]) {
      const r = await asMerchant('POST', '/v1/payments', {
        body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '100' } },
        headers,
      });
      expect(r.status).toBe(201);
      created.push(r.body.paymentId);
    }
    const of = (type: string) => rx.received.filter((x) => x.body?.type === type).map((x) => x.body.data.payment.paymentId);
    // Well under the timer's 60 s: only the write itself can have started the dispatch.
    await rx.until(() => created.every((id) => of('payment.created').includes(id)), 20_000);

    const cancelled = await asMerchant('POST', `/v1/payments/${created[0]}/cancel`, { body: {} });
    expect(cancelled.status).toBe(200);
    await rx.until(() => of('payment.cancelled').includes(created[0]), 20_000);
    // Each event once: a pass started by a write and one started by the notification do not both deliver it.
    await new Promise((r) => setTimeout(r, 500));
    expect(of('payment.created').sort()).toEqual([...created].sort());
    expect(of('payment.cancelled')).toEqual([created[0]]);
    const deliveries = await svc.db('webhook_deliveries').whereIn(
      'event_id',
      rx.received.map((x) => x.body.id),
    );
    expect(deliveries.map((d) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  }, 60_000);

  it('refreshes the planner statistics of the deliveries once a backlog builds up', async () => {
    const { asMerchant, order } = await shop(svc, 'Busy Shop', rx.url, ['payment.created']);
    const first = await asMerchant('POST', '/v1/payments', order());
    expect(first.status).toBe(201);
    const analyzed = async () =>
      (await svc.db('pg_stat_user_tables').where({ relname: 'webhook_deliveries' }).first('last_analyze')).last_analyze as Date | null;
    const before = await analyzed();
    await burst(svc.db, 'evt_burst', 1200, first.body.paymentId);
    // The next creation starts a pass, which fans out the burst and then asks for an ANALYZE.
    expect((await asMerchant('POST', '/v1/payments', order())).status).toBe(201);
    const now = await eventually(analyzed, (at) => at !== null && (before === null || at > before), 20_000, 200);
    expect(now).not.toBeNull();
    if (before) expect(now!.getTime()).toBeGreaterThan(before.getTime());
    // The ANALYZE starts after 1000 deliveries, beside the passes that fan out the last 200.
    const fanned = async () => (await svc.db('webhook_deliveries').where('event_id', 'like', 'evt_burst%').count({ n: '*' }))[0].n;
    expect(await eventually(fanned, (n) => n === '1200', 20_000, 200)).toBe('1200');
  }, 60_000);

  it('during a rolling deploy, fans out the events of both releases, each once, and leaves nothing queued', async () => {
    const { asMerchant, order } = await shop(svc, 'Deploying Shop', rx.url, ['payment.created']);
    const first = await asMerchant('POST', '/v1/payments', order());
    expect(first.status).toBe(201);
    // What a dispatcher of the previous release takes (dispatched_at NULL) excludes this release's events.
    const own = await svc.db('payment_events').where({ payment_id: first.body.paymentId }).first('dispatched_at');
    expect(own.dispatched_at).not.toBeNull();
    // More of each kind than one pass takes (200).
    await burst(svc.db, 'evt_old', 450, first.body.paymentId, 'unmarked');
    // Unequal, so that one source runs dry while the other still has a pass's worth: the passes go on until both are empty.
    await burst(svc.db, 'evt_new', 250, first.body.paymentId, 'queued', 1001);
    expect((await asMerchant('POST', '/v1/payments', order())).status).toBe(201); // starts a pass
    const fanned = async () =>
      (
        await svc.db('webhook_deliveries').where('event_id', 'like', 'evt_old%').orWhere('event_id', 'like', 'evt_new%').count({ n: '*' })
      )[0].n;
    const queued = async () => (await svc.db('payment_event_outbox').count({ n: '*' }))[0].n;
    await eventually(
      async () => [await fanned(), await queued()],
      ([f, q]) => f === '700' && q === '0',
      20_000,
      100,
    );
    expect(await fanned()).toBe('700');
    const perEvent = await svc.db.raw(
      `SELECT count(DISTINCT event_id)::int AS events, count(*)::int AS deliveries FROM webhook_deliveries
         WHERE event_id LIKE 'evt_old%' OR event_id LIKE 'evt_new%'`,
    );
    expect(perEvent.rows[0]).toEqual({ events: 700, deliveries: 700 });
    expect(await svc.db('payment_events').whereNull('dispatched_at').count({ n: '*' })).toEqual([{ n: '0' }]);
    expect(await queued()).toBe('0');
  }, 60_000);
});

describe('the statistics refresh under a held table lock', () => {
  it('gives up instead of holding the dispatch or the shutdown', async () => {
    // No statement timeout: only the ANALYZE's own lock timeout can end its wait.
    const own = await startTestService({ WEBHOOK_DISPATCH_INTERVAL_MS: '60000', DB_STATEMENT_TIMEOUT_MS: '0' });
    const receiver = await startReceiver();
    const side = createDb(process.env.DATABASE_URL!, 2); // the lock's holder: not one of the service's connections
    let release: (() => void) | undefined;
    let locked: Promise<unknown> | undefined;
    try {
      const { asMerchant, order } = await shop(own, 'Locked Shop', receiver.url, ['payment.created']);
      const first = await asMerchant('POST', '/v1/payments', order());
      expect(first.status).toBe(201);
      // A lock that conflicts with ANALYZE and with nothing the deliveries' writes take (as a long autovacuum holds).
      let held!: () => void;
      const isHeld = new Promise<void>((r) => (held = r));
      locked = side.transaction(async (trx) => {
        await trx.raw('LOCK TABLE webhook_deliveries IN SHARE UPDATE EXCLUSIVE MODE');
        held();
        await new Promise<void>((r) => (release = r));
      });
      await isHeld;
      await burst(own.db, 'evt_locked', 1100, first.body.paymentId);
      expect((await asMerchant('POST', '/v1/payments', order())).status).toBe(201);
      // The burst is fanned out while the ANALYZE it asked for waits for the lock.
      const deadline = Date.now() + 20_000;
      const fanned = () => own.db('webhook_deliveries').where('event_id', 'like', 'evt_locked%').count({ n: '*' });
      while ((await fanned())[0].n !== '1100' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await fanned()).toEqual([{ n: '1100' }]);
      // The shutdown waits for the ANALYZE, which gives up on the lock: it ends while the lock is still held.
      await own.close();
    } finally {
      release?.();
      await locked;
      await receiver.close();
    }
  }, 30_000);
});
