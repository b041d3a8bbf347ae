import { createDb } from '../../src/db/knex';
import { eventually } from '../support/eventually';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, startTestService, TestService } from '../support/service';
import { ServiceProcess, spawnService } from '../support/serviceProcess';
import { Receiver, startReceiver } from '../support/webhookReceiver';

// At-least-once delivery across crashes and processes, with the real service as OS processes killed with
// SIGKILL (no shutdown code runs). The process that takes over (or works beside one) is a service in this test's
// process: another process all the same, and much cheaper to start than a spawned one.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
// A killed worker's lease runs out in 5 s; an attempt may take 3 s (the receiver answers in this busy test process).
const FAST = { WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_LEASE_MARGIN_MS: '2000' };

describe('webhooks survive crashes and run in several processes', () => {
  const db = createDb(process.env.DATABASE_URL!, 4);
  const procs: ServiceProcess[] = [];
  const services: TestService[] = [];
  let rx: Receiver;
  beforeEach(async () => {
    rx = await startReceiver();
  });
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.kill();
    for (const s of services.splice(0)) await s.close();
    await rx.close();
  });
  afterAll(() => db.destroy());

  const start = async () => {
    const p = await spawnService(FAST);
    procs.push(p);
    return p;
  };
  /** The other process: a service in this one. */
  const startHere = async () => {
    const s = await startTestService(FAST);
    services.push(s);
    return s;
  };
  const setup = async (url: string, types: string[]) => {
    const m = await merchantWithSettlement({ url, directUrl: url } as TestService, 'Crash Shop');
    const hooks = client(url, { 'Api-Key': m.apiKey, ...PREVIEW });
    const ep = await hooks('POST', '/v1/webhook-endpoints', {
      body: { url: rx.url, enabledEvents: types },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    if (ep.status !== 201) throw new Error(ep.text);
    return m;
  };
  const merchantClient = (url: string, m: { apiKey: string; merchantId: string }) =>
    client(url, { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId });

  it('a worker killed in the middle of a delivery loses nothing: another process delivers the event', async () => {
    const a = await start();
    const m = await setup(a.url, ['payment.created']);
    rx.respond = (_r, nth) => (nth === 1 ? 'hang' : 200);
    const pay = await merchantClient(a.url, m)('POST', '/v1/payments', {
      body: { referenceId: 'crash-1', amount: { unit: 'iso4217/USD', value: '100' } },
    });
    expect(pay.status).toBe(201);

    const [first] = await rx.until((all) => all.length >= 1);
    await a.kill('SIGKILL'); // the receiver has the request; the attempt's outcome is never recorded
    const delivery = await db('webhook_deliveries').where({ event_id: first.headers['webhook-id'] }).first();
    expect(delivery).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await db('webhook_attempts').where({ delivery_id: delivery.id })).toEqual([]);

    const b = await startHere();
    const all = await rx.until((got) => got.length >= 2, 30000);
    expect(all[1].headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(all[1].raw).toBe(first.raw);
    const hooks = client(b.url, { 'Api-Key': m.apiKey, ...PREVIEW });
    const state = await eventually(
      async () => (await hooks('GET', `/v1/events/${first.body.id}/attempts`)).body,
      (b) => b.deliveries[0].status === 'succeeded',
    );
    expect(state.deliveries).toMatchObject([{ status: 'succeeded', attempts: 1 }]);
    expect(state.attempts).toMatchObject([{ responseStatus: 200, succeeded: true }]);
  }, 120_000); // service processes start in seconds each, slower on a busy machine

  it('a service killed right after a change commits loses no event: the outbox is dispatched on restart', async () => {
    const a = await start();
    const m = await setup(a.url, ['payment.created', 'payment.cancelled']);
    rx.respond = () => 200;
    // Stop dispatching in A without a clean shutdown: kill it as soon as the change is answered.
    const asMerchant = merchantClient(a.url, m);
    const pay = await asMerchant('POST', '/v1/payments', {
      body: { referenceId: 'crash-2', amount: { unit: 'iso4217/USD', value: '100' } },
    });
    const cancel = await asMerchant('POST', `/v1/payments/${pay.body.paymentId}/cancel`);
    expect(cancel.status).toBe(200);
    await a.kill('SIGKILL');
    const events = await db('payment_events').where({ payment_id: pay.body.paymentId }).orderBy('version');
    expect(events.map((e) => e.type)).toEqual(['payment.created', 'payment.cancelled']);

    await startHere();
    const got = await rx.until((all) => new Set(all.map((r) => r.body.type)).size >= 2, 30000);
    expect([...new Set(got.map((r) => r.headers['webhook-id']))].sort()).toEqual(events.map((e) => e.id).sort());
  }, 120_000); // service processes start in seconds each, slower on a busy machine

  it('two processes dispatch and deliver the same queue: every event arrives, none twice', async () => {
    const a = await start();
    const b = await startHere();
    const m = await setup(a.url, ['payment.created', 'payment.cancelled']);
    rx.respond = () => 200;
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) {
      const via = merchantClient(i % 2 ? a.url : b.url, m);
      const r = await via('POST', '/v1/payments', { body: { referenceId: `multi-${i}`, amount: { unit: 'iso4217/USD', value: '100' } } });
      ids.push(r.body.paymentId);
      await merchantClient(i % 2 ? b.url : a.url, m)('POST', `/v1/payments/${r.body.paymentId}/cancel`);
    }
    await rx.until((all) => all.length >= 30, 30000);
    await new Promise((r) => setTimeout(r, 1000)); // a duplicate would arrive in this time
    const perEvent = new Map<string, number>();
    for (const r of rx.received) perEvent.set(r.headers['webhook-id'], (perEvent.get(r.headers['webhook-id']) ?? 0) + 1);
    expect(perEvent.size).toBe(30);
    expect([...perEvent.values()].every((n) => n === 1)).toBe(true);
    const attempts = await db('webhook_attempts').whereIn('event_id', [...perEvent.keys()]);
    expect(attempts).toHaveLength(30);
  }, 120_000); // service processes start in seconds each, slower on a busy machine
});
