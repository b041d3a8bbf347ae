import { client, type TestService } from './service';
import { DEVNET_USDC, newBuyer, receiptOf } from './chain';
import { eventually, type flow, type Shop } from './chainSuite';

// What tests/integration/refunds.own.test.ts does again and again, over the service and shop its beforeAll makes.

export const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
/**
 * A service whose minimum partial refund is its floor (USD 0.50) whatever the development chain's fees: the files that
 * use it test how refunds move money; tests/integration/refundLimits.test.ts tests the minimum at its defaults.
 */
export const AT_FLOOR = { CHAIN_31337_NATIVE_PRICE_USD: '1' };
type Flow = ReturnType<typeof flow>;

/** Refund helpers for the service and shop `at()` returns (read when called, so a beforeAll may set them later). */
export function refundHelpers(at: () => { svc: TestService; shop: Shop }) {
  const mined = async (hash: Promise<string>) => {
    const h = await hash;
    await eventually(() => receiptOf(h));
  };
  const preview = () => client(at().svc.url, { 'Api-Key': at().shop.apiKey, 'Merchant-Id': at().shop.merchantId, ...PREVIEW });
  const refund = (paymentId: string, value?: string) =>
    preview()('POST', '/v1/refunds', { body: { paymentId, ...(value ? { amount: { unit: 'iso4217/USD', value } } : {}) } });
  const refunded = (id: string, status = 'succeeded') =>
    eventually(async () => {
      const r = await preview()('GET', `/v1/refunds/${id}`);
      if (r.body.refund?.status !== status) throw new Error(r.text);
      return r.body.refund;
    }, 30_000);
  /** A payment of `value` (USD minor units) on `ff`, paid by a new funded buyer and succeeded. */
  const paid = async (ff: Flow, value: string) => {
    const buyer = await newBuyer(100_000_000n);
    const id = await ff.pay(value);
    const { opt, td } = await ff.option(id, buyer);
    expect((await ff.confirm(id, opt.id, await buyer.signTypedData(td))).status).toBe(200);
    await ff.until(id, (x) => x.status === 'succeeded');
    return { id, buyer };
  };
  /** The shop's available USDC (`GET /v1/balance`), a string in the token's units. */
  const available = async (s: Shop) => {
    const r = await client(at().svc.url, { 'Api-Key': s.apiKey, ...PREVIEW })('GET', '/v1/balance');
    return r.body.balances.find((b: { asset: string }) => b.asset === DEVNET_USDC)?.available;
  };
  return { mined, preview, refund, refunded, paid, available };
}
