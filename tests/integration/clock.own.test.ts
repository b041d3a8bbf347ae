import type { PrivateKeyAccount } from 'viem/accounts';
import { verifyWebhook } from '../../clients/typescript/src/webhooks';
import { newBuyer } from '../support/chain';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, newKey, startTestService, TestService } from '../support/service';
import { startReceiver } from '../support/webhookReceiver';

// Expiry is decided by the database's clock: a process whose clock runs 10 minutes ahead or behind (the
// in-process service shares this test's clock, which is skewed here) must decide exactly as the database
// does with `expires_at <= now()`. Before, checkQuote compared with Date.now() and effectiveStatus with
// new Date(), and payment creation computed the expiry from the process clock.

let buyer: PrivateKeyAccount;
let BUYER_BASE: string;
const MINUTES_10 = 10 * 60_000;

let svc: TestService;
let m: Awaited<ReturnType<typeof merchantWithSettlement>>;
let gw: ReturnType<typeof client>;
// The skewed clock is this process's: it can only move an in-process service (not the contract gate's).

beforeAll(async () => {
  svc = await startTestService({ SWEEP_INTERVAL_MS: '3600000' }); // only readers settle expiry here
  buyer = await newBuyer(1_000_000_000n); // pays on the development chain
  BUYER_BASE = `eip155:31337:${buyer.address}`;
  m = await merchantWithSettlement(svc, 'Clock Shop');
  gw = client(svc.url, { 'Api-Key': (await newKey(m.accountId, 'wallet')).apiKey });
}, 90_000); // a service, a devnet buyer and the admin command: slow on a busy machine
afterAll(() => svc?.close());
afterEach(() => jest.useRealTimers());

/** This process's wall clock (Date only; timers keep running) moved by `ms`. */
const skewProcessClock = (ms: number) =>
  jest.useFakeTimers({
    now: Date.now() + ms,
    advanceTimers: true,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
const dbNowSeconds = async () => Number((await svc.db.raw('SELECT extract(epoch FROM now()) AS s')).rows[0].s);
const newPayment = async () => {
  const r = await m.asMerchant('POST', '/v1/payments', {
    body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '1000' } },
  });
  if (r.status !== 201) throw new Error(r.text);
  return r.body as { paymentId: string; expiresAt: number };
};
const firstOption = async (id: string) => {
  const r = await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [BUYER_BASE] } });
  if (r.status !== 200 || !r.body.options?.length) throw new Error(r.text);
  return r.body.options[0];
};
const confirm = async (id: string, opt: any) =>
  gw('POST', `/v1/gateway/payment/${id}/confirm`, {
    body: {
      optionId: opt.id,
      results: [{ type: 'walletRpc', data: [await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]))] }],
    },
  });
const row = (id: string) => svc.db('payments').where({ id }).first();

describe('expiry follows the database clock, not the process clock', () => {
  it('a process 10 minutes ahead: the payment and its quote expire by the database, and are open until then', async () => {
    skewProcessClock(MINUTES_10);
    const created = await newPayment();
    const now = await dbNowSeconds();
    // 5 minutes (PAYMENT_TTL_SECONDS) from the database's now, not from the process's.
    expect(created.expiresAt).toBeGreaterThan(now + 290);
    expect(created.expiresAt).toBeLessThanOrEqual(now + 301);
    expect(Math.floor((await row(created.paymentId)).expires_at.getTime() / 1000)).toBe(created.expiresAt);

    const shown = await gw('GET', `/v1/gateway/payment/${created.paymentId}`);
    expect({ status: shown.status, paymentStatus: shown.body.status }).toEqual({ status: 200, paymentStatus: 'requires_action' });
    const opt = await firstOption(created.paymentId);
    // The quote is made after `now` (on a loaded machine seconds later): its bound is the database's now after it.
    expect(opt.expiresAt).toBeGreaterThan(now + 110); // QUOTE_TTL_SECONDS 120 by the database's clock
    expect(opt.expiresAt).toBeLessThanOrEqual((await dbNowSeconds()) + 121);
    const ok = await confirm(created.paymentId, opt);
    expect({ status: ok.status, paymentStatus: ok.body.status }).toEqual({ status: 200, paymentStatus: 'processing' });
    expect((await row(created.paymentId)).status).toBe('processing');
  });

  it('a process 10 minutes behind: a quote and a payment past their expiry by the database are expired', async () => {
    const created = await newPayment();
    const opt = await firstOption(created.paymentId);
    await svc
      .db('payment_options')
      .where({ id: opt.id })
      .update({ expires_at: svc.db.raw("now() - interval '1 second'") });
    skewProcessClock(-MINUTES_10);
    const late = await confirm(created.paymentId, opt);
    expect({ status: late.status, code: late.body.code }).toEqual({ status: 409, code: 'quote_expired' });
    expect((await row(created.paymentId)).status).toBe('requires_action');

    await svc
      .db('payments')
      .where({ id: created.paymentId })
      .update({ expires_at: svc.db.raw("now() - interval '1 second'") });
    const status = await m.asMerchant('GET', `/v1/payments/${created.paymentId}/status`);
    expect({ status: status.status, paymentStatus: status.body.status, isFinal: status.body.isFinal }).toEqual({
      status: 200,
      paymentStatus: 'expired',
      isFinal: true,
    });
    expect((await row(created.paymentId)).status).toBe('expired'); // the reader brought it up to date
    const events = await svc.db('payment_events').where({ payment_id: created.paymentId }).orderBy('version').pluck('type');
    expect(events).toEqual(['payment.created', 'payment.expired']);
    const buyerSide = await gw('POST', `/v1/gateway/payment/${created.paymentId}/cancel`);
    expect({ status: buyerSide.status, code: buyerSide.body.code }).toEqual({ status: 410, code: 'payment_expired' });
  });

  it("a webhook delivery judges the previous secret's overlap, and stamps its time, by the database", async () => {
    const rx = await startReceiver();
    try {
      const preview = { 'Api-Key': m.apiKey, 'PAY-Version': '2026-02-19.preview' };
      const hooks = client(svc.directUrl, preview);
      const created = await hooks('POST', '/v1/webhook-endpoints', {
        body: { url: rx.url, enabledEvents: ['payment.cancelled'] },
        headers: { 'Idempotency-Key': uniqueKey() },
      });
      expect(created.status).toBe(201);
      const rotated = await hooks('POST', `/v1/webhook-endpoints/${created.body.endpoint.id}/rotate-secret`, {
        body: { overlapSeconds: 120 },
      });
      expect(rotated.status).toBe(200);
      skewProcessClock(MINUTES_10); // past the overlap by the process's clock, inside it by the database's
      const { paymentId } = await newPayment();
      expect(
        (await client(svc.directUrl, { ...preview, 'Merchant-Id': m.merchantId })('POST', `/v1/payments/${paymentId}/cancel`)).status,
      ).toBe(200);
      const [delivery] = (await rx.until((all) => all.some((r) => r.body?.data?.payment?.paymentId === paymentId), 20_000)).filter(
        (r) => r.body?.data?.payment?.paymentId === paymentId,
      );
      const now = await dbNowSeconds();
      jest.useRealTimers();
      expect(delivery.headers['webhook-signature'].split(' ')).toHaveLength(2); // still signed with both secrets
      expect(Math.abs(Number(delivery.headers['webhook-timestamp']) - now)).toBeLessThan(60);
      expect(verifyWebhook(delivery.raw, delivery.headers, created.body.secret).id).toBe(delivery.body.id);
      expect(verifyWebhook(delivery.raw, delivery.headers, rotated.body.secret).id).toBe(delivery.body.id);
    } finally {
      jest.useRealTimers();
      await rx.close();
    }
  });
});
