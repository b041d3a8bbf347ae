import type { PrivateKeyAccount } from 'viem/accounts';
import { client, newAccount, newKey, Res, startTestService, TestService } from '../support/service';
import { uniqueKey } from '../support/fixtures';
import { DEVNET_USDC, newBuyer, newWallet } from '../support/chain';

// `livemode` on the wire (docs/testmode.md "Mode on the wire"): at 2026-02-19.preview every merchant, settlement,
// payment and gateway payment a partner or wallet is answered carries `livemode` (true for a live key's objects,
// false for a test key's); at 2026-02-18 no answer has the key at all. Every call goes through HTTP, and the
// service checks each reply against its version's document (VALIDATE_RESPONSES; Prism too in the contract gate).

const PREVIEW = '2026-02-19.preview';
const STABLE = '2026-02-18';

let svc: TestService;
let buyer: PrivateKeyAccount;
const keys: Record<'live' | 'test', { partner: string; wallet: string }> = {} as never;

beforeAll(async () => {
  svc = await startTestService();
  buyer = await newBuyer(10_000_000n);
  const acct = await newAccount('Livemode partner');
  keys.live = { partner: acct.apiKey, wallet: (await newKey(acct.accountId, 'wallet')).apiKey };
  keys.test = {
    partner: (await newKey(acct.accountId, 'partner', undefined, 'test')).apiKey,
    wallet: (await newKey(acct.accountId, 'wallet', undefined, 'test')).apiKey,
  };
}, 60_000);

afterAll(() => svc.close());

/** One answer, and where in its body the objects that carry `livemode` are. */
interface Call {
  operation: string;
  status: number;
  res: Res;
  objects: (body: any) => { livemode?: unknown }[];
}

/** Every operation that answers a shared object, called with `mode`'s keys at `version`, on objects made on the way. */
async function walk(mode: 'live' | 'test', version: string): Promise<Call[]> {
  const headers = { 'PAY-Version': version };
  const api = client(svc.url, { 'Api-Key': keys[mode].partner, ...headers });
  const gw = client(svc.url, { 'Api-Key': keys[mode].wallet, ...headers });
  const calls: Call[] = [];
  const call = async (operation: string, status: number, pending: Promise<Res>, objects: Call['objects']) => {
    const res = await pending;
    calls.push({ operation, status, res, objects });
    return res;
  };
  const idem = () => ({ headers: { 'Idempotency-Key': uniqueKey() } });

  const m = await call(
    'createMerchant',
    201,
    api('POST', '/v1/merchants', { body: { merchantName: `Mode shop ${mode}`, merchantEmail: 'm@x.io' }, ...idem() }),
    (b) => [b.merchant],
  );
  const merchantId: string = m.body.merchant.id;
  const settlements = `/v1/merchants/${merchantId}/settlements`;
  const s = await call(
    'createCryptoSettlements',
    201,
    api('POST', `${settlements}/crypto`, {
      body: { settlements: [{ asset: DEVNET_USDC, destination: `eip155:31337:${newWallet()}` }] },
      ...idem(),
    }),
    (b) => b.settlements,
  );
  const settlementId: string = s.body.settlements[0].id;
  const destination = { destination: `eip155:31337:${newWallet()}` };
  await call('updateCryptoSettlement', 200, api('PUT', `${settlements}/crypto/${settlementId}`, { body: destination }), (b) => [b]);
  await call('listSettlements', 200, api('GET', settlements), (b) => b.crypto);
  await call('getMerchant', 200, api('GET', `/v1/merchants/${merchantId}`), (b) => [b.merchant, ...b.merchant.settlements.crypto]);
  await call('updateMerchant', 200, api('PATCH', `/v1/merchants/${merchantId}`, { body: { merchantName: 'Renamed' } }), (b) => [
    b.merchant,
  ]);
  await call('listMerchants', 200, api('GET', `/v1/merchants?search=${merchantId}`), (b) => b.merchants);

  const asMerchant = client(svc.url, { 'Api-Key': keys[mode].partner, 'Merchant-Id': merchantId, ...headers });
  const newPayment = async (operation: string, path: string) => {
    const body = { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '100' } };
    return (await call(operation, 201, asMerchant('POST', path, { body }), (b) => [b])).body.paymentId as string;
  };
  const paid = await newPayment('createPayment', '/v1/payments');
  const declined = await newPayment('createPaymentDeprecated', '/v1/merchant/payment');
  const cancelled = await newPayment('createPayment', '/v1/payments');
  const buyerCancelled = await newPayment('createPayment', '/v1/payments');
  const list = (b: any) => b.data;
  await call('listPayments', 200, api('GET', `/v1/payments?merchantId=${merchantId}`), list);
  await call('listMerchantPayments', 200, asMerchant('GET', '/v1/merchants/payments'), list);
  await call('listMerchantPaymentsDeprecated', 200, api('GET', `/v1/merchants/${merchantId}/payments`), list);
  await call('getPayment', 200, asMerchant('GET', `/v1/payments/${paid}`), (b) => [b]);
  await call('getPaymentStatus', 200, asMerchant('GET', `/v1/payments/${paid}/status`), (b) => [b]);
  await call('getPaymentStatusDeprecated', 200, asMerchant('GET', `/v1/merchant/payment/${paid}/status`), (b) => [b]);

  const gateway = `/v1/gateway/payment/${paid}`;
  await call('getGatewayPayment', 200, gw('GET', gateway), (b) => [b]);
  const accounts = [`eip155:31337:${buyer.address}`];
  const o = await call('getPaymentOptions', 200, gw('POST', `${gateway}/options?includePaymentInfo=true`, { body: { accounts } }), (b) => [
    b.info,
  ]);
  const option = o.body.options.find((x: any) => x.amount.unit === `caip19/${DEVNET_USDC}`);
  const signature = await buyer.signTypedData(JSON.parse(option.actions[0].data.params[1]));
  const confirm = { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] };
  await call('confirmPayment', 200, gw('POST', `${gateway}/confirm`, { body: confirm }), (b) => [b]);
  await call('getGatewayPaymentStatus', 200, gw('GET', `${gateway}/status`), (b) => [b]);
  await call('declineGatewayPayment', 200, gw('POST', `/v1/gateway/payment/${declined}/decline`), (b) => [b]);
  await call('cancelPayment', 200, asMerchant('POST', `/v1/payments/${cancelled}/cancel`), (b) => [b]);
  await call('cancelGatewayPayment', 200, gw('POST', `/v1/gateway/payment/${buyerCancelled}/cancel`), (b) => [b]);
  if (mode === 'test' && version === PREVIEW) {
    const expiring = await newPayment('createPayment', '/v1/payments');
    await call('expireTestPayment', 200, api('POST', `/v1/test-helpers/payments/${expiring}/expire`), (b) => [b]);
  }
  return calls;
}

/** Every `livemode` anywhere in a body. */
function livemodes(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(livemodes);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => (k === 'livemode' ? [v] : livemodes(v)));
}

describe.each([
  ['live', true],
  ['test', false],
] as const)('a %s key', (mode, expected) => {
  it(`at ${PREVIEW}, every merchant, settlement, payment and gateway payment answered carries livemode: ${expected}`, async () => {
    const calls = await walk(mode, PREVIEW);
    for (const { operation, status, res, objects } of calls) {
      expect([operation, res.status, res.headers.get('pay-version')]).toEqual([operation, status, PREVIEW]);
      const carriers = objects(res.body);
      expect([operation, carriers.length > 0]).toEqual([operation, true]);
      for (const o of carriers) expect([operation, o.livemode]).toEqual([operation, expected]);
      expect([operation, livemodes(res.body).every((v) => v === expected)]).toEqual([operation, true]);
    }
    expect(calls.map((c) => c.operation)).toEqual(expect.arrayContaining(mode === 'test' ? ['expireTestPayment'] : []));
  }, 60_000);

  it(`at ${STABLE}, the same answers have no livemode anywhere`, async () => {
    for (const { operation, status, res, objects } of await walk(mode, STABLE)) {
      expect([operation, res.status, res.headers.get('pay-version')]).toEqual([operation, status, STABLE]);
      expect([operation, objects(res.body).length > 0]).toEqual([operation, true]);
      expect([operation, res.text.includes('livemode')]).toEqual([operation, false]);
    }
  }, 60_000);
});
