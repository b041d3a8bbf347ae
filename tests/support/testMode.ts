import { client } from './service';
import { uniqueKey } from './fixtures';
import { DEVNET_USDC, newWallet } from './chain';
import { PREVIEW } from './webhooksSuite';

// Test mode (docs/testmode.md): the operations that take an id, run with the other mode's ids, for
// tests/integration/testMode.test.ts (in-process service) and testModeStack.own.test.ts (production settings).

type Api = ReturnType<typeof client>;
export interface Side {
  partner: Api;
  wallet: Api;
  merchantId: string;
  settlementId: string;
  paymentId: string;
  referenceId: string;
  endpointId: string;
  eventId: string;
}

const missing = { merchantId: 'mrch_0000000000000000000000', settlementId: 'crypto_0000000000000000000000' };
const NO = {
  ...missing,
  paymentId: 'pay_0000000000000000000000',
  endpointId: 'we_0000000000000000000000',
  eventId: 'evt_0000000000000000000000',
  referenceId: 'order_none',
};

/**
 * A key's objects: a merchant (made with `settlements` when not given), one of its settlements, a USD 1.00 payment,
 * a webhook endpoint to `hooksUrl` and the payment's first event.
 */
export async function side(
  url: string,
  keys: { apiKey: string; walletKey: string },
  opts: { hooksUrl: string; merchantId?: string; settlements?: string[] },
): Promise<Side> {
  const partnerApi = client(url, { 'Api-Key': keys.apiKey, ...PREVIEW });
  let merchantId = opts.merchantId;
  if (!merchantId) {
    const m = await partnerApi('POST', '/v1/merchants', {
      body: { merchantName: 'Test side', merchantEmail: 'm@x.io' },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    merchantId = m.body.merchant.id as string;
    const s = await partnerApi('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
      body: {
        settlements: (opts.settlements ?? [DEVNET_USDC]).map((asset) => ({ asset, destination: `${asset.split('/')[0]}:${newWallet()}` })),
      },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    if (s.status !== 201) throw new Error(`settlements: ${s.text}`);
  }
  const settlements = await partnerApi('GET', `/v1/merchants/${merchantId}/settlements`);
  const referenceId = uniqueKey('order');
  const p = await partnerApi('POST', '/v1/payments', {
    body: { referenceId, amount: { unit: 'iso4217/USD', value: '100' } },
    headers: { 'Merchant-Id': merchantId },
  });
  expect(p.status).toBe(201);
  const e = await partnerApi('POST', '/v1/webhook-endpoints', {
    body: { url: opts.hooksUrl, enabledEvents: ['payment.created', 'payment.processing', 'payment.succeeded'] },
    headers: { 'Idempotency-Key': uniqueKey() },
  });
  expect(e.status).toBe(201);
  const events = await partnerApi('GET', `/v1/events?paymentId=${p.body.paymentId}`);
  return {
    partner: partnerApi,
    wallet: client(url, { 'Api-Key': keys.walletKey, ...PREVIEW }),
    merchantId: merchantId!,
    settlementId: settlements.body.crypto[0].id,
    paymentId: p.body.paymentId,
    referenceId,
    endpointId: e.body.endpoint.id,
    eventId: events.body.events[0].id,
  };
}

/** Every operation that takes an id, as [name, call with ids]: the partner's and the wallet's. */
type Ids = Record<keyof typeof NO, string>;
const OPERATIONS: [string, (s: Side, ids: Ids) => Promise<{ status: number; body: any }>][] = [
  ['get merchant', (s, i) => s.partner('GET', `/v1/merchants/${i.merchantId}`)],
  ['update merchant', (s, i) => s.partner('PATCH', `/v1/merchants/${i.merchantId}`, { body: { merchantName: 'x' } })],
  ['delete merchant', (s, i) => s.partner('DELETE', `/v1/merchants/${i.merchantId}`)],
  ['list settlements', (s, i) => s.partner('GET', `/v1/merchants/${i.merchantId}/settlements`)],
  [
    'create settlement',
    (s, i) =>
      s.partner('POST', `/v1/merchants/${i.merchantId}/settlements/crypto`, {
        body: { settlements: [{ asset: DEVNET_USDC, destination: `eip155:31337:${newWallet()}` }] },
        headers: { 'Idempotency-Key': uniqueKey() },
      }),
  ],
  [
    'update settlement',
    (s, i) =>
      s.partner('PUT', `/v1/merchants/${i.merchantId}/settlements/crypto/${i.settlementId}`, {
        body: { destination: `eip155:31337:${newWallet()}` },
      }),
  ],
  ['delete settlement', (s, i) => s.partner('DELETE', `/v1/merchants/${i.merchantId}/settlements/crypto/${i.settlementId}`)],
  [
    'create payment',
    (s, i) =>
      s.partner('POST', '/v1/payments', {
        body: { referenceId: uniqueKey(), amount: { unit: 'iso4217/USD', value: '100' } },
        headers: { 'Merchant-Id': i.merchantId },
      }),
  ],
  [
    'create payment (deprecated path)',
    (s, i) =>
      s.partner('POST', '/v1/merchant/payment', {
        body: { referenceId: uniqueKey(), amount: { unit: 'iso4217/USD', value: '100' } },
        headers: { 'Merchant-Id': i.merchantId },
      }),
  ],
  ['list merchant payments', (s, i) => s.partner('GET', `/v1/merchants/${i.merchantId}/payments`)],
  ['list payments of the Merchant-Id', (s, i) => s.partner('GET', '/v1/merchants/payments', { headers: { 'Merchant-Id': i.merchantId } })],
  ['list payments filtered by merchant', (s, i) => s.partner('GET', `/v1/payments?merchantId=${i.merchantId}`)],
  ['get payment', (s, i) => s.partner('GET', `/v1/payments/${i.paymentId}`, { headers: { 'Merchant-Id': s.merchantId } })],
  [
    'long-poll payment status',
    (s, i) => s.partner('GET', `/v1/payments/${i.paymentId}/status?maxPollMs=50`, { headers: { 'Merchant-Id': s.merchantId } }),
  ],
  [
    'payment status (deprecated path)',
    (s, i) => s.partner('GET', `/v1/merchant/payment/${i.paymentId}/status`, { headers: { 'Merchant-Id': s.merchantId } }),
  ],
  ['cancel payment', (s, i) => s.partner('POST', `/v1/payments/${i.paymentId}/cancel`, { headers: { 'Merchant-Id': s.merchantId } })],
  [
    'refund payment',
    (s, i) => s.partner('POST', '/v1/refunds', { body: { paymentId: i.paymentId }, headers: { 'Merchant-Id': s.merchantId } }),
  ],
  [
    'list refunds of payment',
    (s, i) => s.partner('GET', `/v1/refunds?paymentId=${i.paymentId}`, { headers: { 'Merchant-Id': s.merchantId } }),
  ],
  ['test helper expire', (s, i) => s.partner('POST', `/v1/test-helpers/payments/${i.paymentId}/expire`)],
  ['test helper stall', (s, i) => s.partner('POST', `/v1/test-helpers/payments/${i.paymentId}/stall`)],
  ['test helper reorg', (s, i) => s.partner('POST', `/v1/test-helpers/payments/${i.paymentId}/reorg`)],
  ['get webhook endpoint', (s, i) => s.partner('GET', `/v1/webhook-endpoints/${i.endpointId}`)],
  ['update webhook endpoint', (s, i) => s.partner('PATCH', `/v1/webhook-endpoints/${i.endpointId}`, { body: { description: 'x' } })],
  ['rotate endpoint secret', (s, i) => s.partner('POST', `/v1/webhook-endpoints/${i.endpointId}/rotate-secret`, { body: {} })],
  ['delete webhook endpoint', (s, i) => s.partner('DELETE', `/v1/webhook-endpoints/${i.endpointId}`)],
  ['get event', (s, i) => s.partner('GET', `/v1/events/${i.eventId}`)],
  ['event attempts', (s, i) => s.partner('GET', `/v1/events/${i.eventId}/attempts`)],
  ['redeliver event', (s, i) => s.partner('POST', `/v1/events/${i.eventId}/redeliver`, { body: {} })],
  ['gateway get payment', (s, i) => s.wallet('GET', `/v1/gateway/payment/${i.paymentId}`)],
  ['gateway long-poll status', (s, i) => s.wallet('GET', `/v1/gateway/payment/${i.paymentId}/status?maxPollMs=50`)],
  [
    'gateway options',
    (s, i) => s.wallet('POST', `/v1/gateway/payment/${i.paymentId}/options`, { body: { accounts: [`eip155:31337:${newWallet()}`] } }),
  ],
  [
    'gateway fetch',
    (s, i) => s.wallet('POST', `/v1/gateway/payment/${i.paymentId}/fetch`, { body: { optionId: 'opt_0000000000000000000000', data: {} } }),
  ],
  [
    'gateway confirm',
    (s, i) =>
      s.wallet('POST', `/v1/gateway/payment/${i.paymentId}/confirm`, {
        body: { optionId: 'opt_0000000000000000000000', results: [{ type: 'walletRpc', data: ['0x00'] }] },
      }),
  ],
  ['gateway x402', (s, i) => s.wallet('GET', `/v1/gateway/payment/${i.paymentId}/x402`)],
  ['gateway cancel', (s, i) => s.wallet('POST', `/v1/gateway/payment/${i.paymentId}/cancel`)],
  ['gateway decline', (s, i) => s.wallet('POST', `/v1/gateway/payment/${i.paymentId}/decline`)],
];

/** The lists that filter by an id: with the other mode's id each answers exactly as with an id that does not exist. */
const FILTERS: [string, (s: Side, ids: Ids) => Promise<{ status: number; body: any }>][] = [
  ['list events of a payment', (s, i) => s.partner('GET', `/v1/events?paymentId=${i.paymentId}`)],
  ['list payments by reference', (s, i) => s.partner('GET', `/v1/payments?referenceId=${i.referenceId}`)],
];

/**
 * One test per operation and direction: with the other mode's ids each answers exactly as with ids that do not
 * exist (status, code, message), and the other mode's objects stay as they were.
 */
export function describeIsolation(live: () => Side, test: () => Side): void {
  describe.each([
    ['a test key', test, live],
    ['a live key', live, test],
  ])("%s and the other mode's ids", (_, caller, other) => {
    it.each(OPERATIONS)('%s answers exactly as for an id that does not exist, and changes nothing', async (__, op) => {
      const before = await snapshot(other());
      const unknown = await op(caller(), NO);
      const got = await op(caller(), { ...NO, ...other() });
      expect(got.status).toBe(404);
      expect([got.status, got.body.code, got.body.message]).toEqual([unknown.status, unknown.body.code, unknown.body.message]);
      expect(await snapshot(other())).toEqual(before);
    });
    it.each(FILTERS)('%s answers exactly as for an id that does not exist', async (__, op) => {
      const unknown = await op(caller(), NO);
      const got = await op(caller(), { ...NO, ...other() });
      expect(got).toMatchObject({ status: unknown.status, body: unknown.body });
    });
  });
}

/** What the other mode's operations must leave as it was. */
export async function snapshot(s: Side) {
  const [m, p, e] = await Promise.all([
    s.partner('GET', `/v1/merchants/${s.merchantId}`),
    s.partner('GET', `/v1/payments/${s.paymentId}`, { headers: { 'Merchant-Id': s.merchantId } }),
    s.partner('GET', `/v1/webhook-endpoints/${s.endpointId}`),
  ]);
  return [m.body.merchant, p.body.status, e.body.endpoint];
}
