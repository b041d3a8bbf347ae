import type { PrivateKeyAccount } from 'viem/accounts';
import { client, newKey, startTestService, TestService } from './service';
import { merchantWithSettlement, uniqueKey } from './fixtures';
import { Received, Receiver, startReceiver } from './webhookReceiver';
import { newBuyer } from './chain';

// Webhooks end to end with real HTTPS receivers on loopback: management API (preview), every event type
// signed per Standard Webhooks, retries until the receiver recovers, secret rotation, redelivery, and
// receivers ordering by version. Preview requests go straight to the service (Prism checks the stable one).

export const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
const ALL_TYPES = [
  'payment.created',
  'payment.processing',
  'payment.succeeded',
  'payment.failed',
  'payment.expired',
  'payment.cancelled',
  'payment.settled',
  'payment.refunded',
];

let buyer: PrivateKeyAccount; // funded on the development chain: payments here move real tokens
export let svc: TestService;
export let rx: Receiver;
/** The service, a funded buyer and a webhook receiver for the calling test file (its beforeAll and afterAll). */
export function useWebhooksSuite(): void {
  beforeAll(async () => {
    svc = await startTestService();
    buyer = await newBuyer(1_000_000_000n);
    rx = await startReceiver();
  }, 60_000); // starts a service (and the admin command): slow on a busy machine
  afterAll(async () => {
    await rx.close();
    await svc.close();
  });
}

export async function partner() {
  const m = await merchantWithSettlement(svc, 'Hooked Shop');
  const hooks = client(svc.directUrl, { 'Api-Key': m.apiKey, ...PREVIEW });
  const asMerchant = client(svc.directUrl, { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId, ...PREVIEW });
  return { ...m, hooks, asMerchant };
}
export type Partner = Awaited<ReturnType<typeof partner>>;

export async function endpoint(p: Partner, url: string, enabledEvents = ALL_TYPES) {
  const r = await p.hooks('POST', '/v1/webhook-endpoints', { body: { url, enabledEvents }, headers: { 'Idempotency-Key': uniqueKey() } });
  if (r.status !== 201) throw new Error(r.text);
  return r.body as { endpoint: any; secret: string };
}

export async function newPayment(p: Partner, extra: Record<string, unknown> = {}) {
  const r = await p.asMerchant('POST', '/v1/payments', {
    body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '1500' }, ...extra },
  });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.paymentId as string;
}

export async function pay(p: Partner, paymentId: string) {
  const wallet = await newKey(p.accountId, 'wallet');
  const gw = client(svc.directUrl, { 'Api-Key': wallet.apiKey });
  const o = await gw('POST', `/v1/gateway/payment/${paymentId}/options`, { body: { accounts: [`eip155:31337:${buyer.address}`] } });
  const opt = o.body.options?.[0];
  if (!opt) throw new Error(`no option: ${o.text}`);
  const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
  const c = await gw('POST', `/v1/gateway/payment/${paymentId}/confirm`, {
    body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] },
  });
  if (c.status !== 200) throw new Error(c.text);
  return gw;
}

export const forPayment = (all: Received[], paymentId: string) => all.filter((r) => r.body?.data?.payment?.paymentId === paymentId);
export const hasTypes = (paymentId: string, types: string[]) => (all: Received[]) => {
  const got = new Set(forPayment(all, paymentId).map((r) => r.body.type));
  return types.every((t) => got.has(t));
};
