import type { PrivateKeyAccount } from 'viem/accounts';
import { client, newKey, startTestService, TestService } from './service';
import { merchantWithSettlement, uniqueKey } from './fixtures';
import { eventually } from './eventually';
import { newBuyer } from './chain';

export let svc: TestService;
export let m: Awaited<ReturnType<typeof merchantWithSettlement>>;
/** Straight to the service, for requests that break the stable contract on purpose (or use the preview). */
export let direct: ReturnType<typeof client>;
export const BASE = 'https://pay.example.com';
/** Pays the payments that must succeed, with real tokens on the development chain. */
let buyer: PrivateKeyAccount;

/** The service, a funded buyer and a merchant for the calling test file (its beforeAll and afterAll). */
export function usePaymentsSuite(): void {
  beforeAll(async () => {
    svc = await startTestService(); // PUBLIC_BASE_URL and a 500 ms sweeper from service-env.json
    buyer = await newBuyer(1_000_000_000n);
    m = await merchantWithSettlement(svc, 'Payments');
    direct = client(svc.directUrl, { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId });
  }, 60_000); // starts a service (and the admin command): slow on a busy machine
  afterAll(() => svc.close());
}

export const usd = (value = '1000') => ({ unit: 'iso4217/USD', value });
export const create = (body: Record<string, unknown>, c = m.asMerchant, headers: Record<string, string> = {}) =>
  c('POST', '/v1/payments', { body, headers });
export const newPayment = async (extra: Record<string, unknown> = {}) => {
  const r = await create({ referenceId: uniqueKey('order'), amount: usd(), ...extra });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.paymentId as string;
};
export const events = (paymentId: string) => svc.db('payment_events').where({ payment_id: paymentId }).orderBy('version');
export const walletKeys = new Map<string, string>();
/** The buyer pays through the gateway (a wallet key of the payment's account), on chain; resolves once it succeeded. */
export const paySucceeded = async (paymentId: string, accountId: string) => {
  if (!walletKeys.has(accountId)) walletKeys.set(accountId, (await newKey(accountId, 'wallet')).apiKey);
  const gw = client(svc.url, { 'Api-Key': walletKeys.get(accountId)! });
  const o = await gw('POST', `/v1/gateway/payment/${paymentId}/options`, { body: { accounts: [`eip155:31337:${buyer.address}`] } });
  const opt = o.body.options?.[0];
  if (!opt) throw new Error(`no option for ${paymentId}: ${o.text}`);
  const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
  const c = await gw('POST', `/v1/gateway/payment/${paymentId}/confirm`, {
    body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] },
  });
  if (c.status !== 200) throw new Error(c.text);
  const final = await eventually(
    async () => (await gw('GET', `/v1/gateway/payment/${paymentId}/status?maxPollMs=5000`)).body,
    (b) => b.isFinal,
    20_000,
  );
  if (final.status !== 'succeeded') throw new Error(`payment ${paymentId} ended ${JSON.stringify(final)}`);
};
