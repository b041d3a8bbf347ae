import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { client, newKey, startTestService, TestService } from './service';
import { merchantWithSettlement, uniqueKey } from './fixtures';
import { newBuyer } from './chain';

// The wallet side, played by a viem local account funded on the development chain, over HTTP only.
// Every payment here moves real tokens on anvil.

export const stranger = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
export let buyer: PrivateKeyAccount;
export let BUYER_BASE: string;

export let svc: TestService;
export let m: Awaited<ReturnType<typeof merchantWithSettlement>>;
export let gw: ReturnType<typeof client>;

/** The service, a funded buyer, a merchant and a wallet key for the calling test file (its beforeAll and afterAll). */
export function useGatewaySuite(): void {
  beforeAll(async () => {
    svc = await startTestService(); // PUBLIC_BASE_URL https://pay.example.com (service-env.json)
    buyer = await newBuyer(1_000_000_000n); // USDC 1,000.00
    BUYER_BASE = `eip155:31337:${buyer.address}`;
    m = await merchantWithSettlement(svc, 'Gateway Shop');
    const wallet = await newKey(m.accountId, 'wallet');
    gw = client(svc.url, { 'Api-Key': wallet.apiKey });
  });
  afterAll(() => svc.close());
}

export const newPayment = async (value = '1000', asMerchant = m.asMerchant) => {
  const r = await asMerchant('POST', '/v1/payments', { body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value } } });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.paymentId as string;
};
export const options = (id: string, accounts?: string[], c = gw) =>
  c('POST', `/v1/gateway/payment/${id}/options?includePaymentInfo=true`, { body: { accounts: accounts ?? [BUYER_BASE] } });
export const firstOption = async (id: string, c = gw) => {
  const r = await options(id, [BUYER_BASE], c);
  if (r.status !== 200 || !r.body.options?.length) throw new Error(r.text);
  return r.body.options[0];
};
export const signAction = (opt: any, who = buyer) => who.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
export const confirm = (id: string, optionId: string, sig: string, extra: Record<string, unknown> = {}, c = gw, q = '') =>
  c('POST', `/v1/gateway/payment/${id}/confirm${q}`, { body: { optionId, results: [{ type: 'walletRpc', data: [sig] }], ...extra } });
export const row = (id: string) => svc.db('payments').where({ id }).first();
export const untilFinal = async (id: string) => {
  for (let i = 0; i < 20; i++) {
    const r = await gw('GET', `/v1/gateway/payment/${id}/status?maxPollMs=5000`);
    if (r.body.isFinal) return r;
  }
  throw new Error('never final');
};
export const untilSettled = async (id: string) => {
  for (let i = 0; i < 100; i++) {
    const r = await m.asMerchant('GET', `/v1/payments/${id}`);
    if (r.body.settlement) return r.body;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('never settled');
};
/** A refusal that leaves the payment payable; `reason`: ours, where the code is the hosted contract's (docs/api.md). */
export const expectRefused = async (r: { status: number; body: any }, status: number, code: string, id: string, reason?: string) => {
  expect({ status: r.status, code: r.body.code, reason: r.body.reason }).toEqual({ status, code, reason });
  expect((await row(id)).status).toBe('requires_action');
};
