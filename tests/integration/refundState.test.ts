import { startTestService, TestService } from '../support/service';
import { balanceOf, DEVNET_USDC, newBuyer, receiptOf } from '../support/chain';
import { uniqueKey } from '../support/fixtures';
import { eventually, flow, setup, Shop } from '../support/chainSuite';
import { refundHelpers } from '../support/refundsSuite';

// Issue 46: a refund's answer says what became of the money, on every version. At 2026-02-18 the refund answer carries
// the refund as it stands (a superset of the hosted contract's `{paymentId}`) and payment details list the payment's
// refunds, so that a stable-only partner sees a refund that waits for funding, the payment that funds it, and when the
// tokens went back. On the run's development chain, with the default immediate settlement: once the payment settled,
// the collector holds nothing of the account, so the refund needs a funding payment.

jest.setTimeout(120_000);

describe('the state of a refund at the stable version', () => {
  let svc: TestService;
  let shop: Shop;
  let f: ReturnType<typeof flow>;
  const { paid, preview, refunded } = refundHelpers(() => ({ svc, shop }));

  beforeAll(async () => {
    svc = await startTestService();
    const s = await setup(svc);
    shop = s.shop;
    f = flow(svc.url, shop, s.gw);
  }, 60_000);
  afterAll(() => svc.close());

  it('a refund the balance cannot cover answers requires_funding with the funding payment, details show it; paid, it goes out', async () => {
    const { id, buyer } = await paid(f, '700');
    await f.until(id, (d) => d.settlement !== null);
    const key = uniqueKey('refund');
    const ask = () => shop.asMerchant('POST', '/v1/refunds', { body: { paymentId: id }, headers: { 'Idempotency-Key': key } });
    const r = await ask();
    expect(r.status).toBe(200);
    const funding: string = r.body.refund?.fundingInstructions?.paymentId;
    expect(r.body).toEqual({
      paymentId: id,
      refundedAt: expect.any(String),
      refund: {
        id: expect.stringMatching(/^ref_/),
        paymentId: id,
        amount: { unit: 'iso4217/USD', value: '700' },
        tokenAmount: { unit: `caip19/${DEVNET_USDC}`, value: '7000000' },
        status: 'requires_funding',
        failureCode: null,
        txId: null,
        fundingInstructions: { paymentId: expect.stringMatching(/^pay_/), gatewayUrl: expect.stringMatching(/\/\?pid=pay_/) },
        createdAt: expect.any(String),
      },
    });
    expect(r.body.refund.fundingInstructions.gatewayUrl.endsWith(`/?pid=${funding}`)).toBe(true);
    expect(await balanceOf(buyer.address)).toBe(93_000_000n); // nothing went back

    // Replayed with its Idempotency-Key: the same answer, byte for byte, and no second refund.
    const again = await ask();
    expect([again.status, again.headers.get('idempotent-replayed'), again.text]).toEqual([200, 'true', r.text]);

    // Details say the same at both versions (the preview's refund with `livemode`), the funding link included.
    const stable = (await shop.asMerchant('GET', `/v1/payments/${id}`)).body;
    expect({ refundedAt: stable.refundedAt, refunds: stable.refunds }).toEqual({ refundedAt: r.body.refundedAt, refunds: [r.body.refund] });
    expect((await preview()('GET', `/v1/payments/${id}`)).body.refunds).toEqual([{ ...r.body.refund, livemode: true }]);

    // Anyone pays the funding payment through the gateway; the refund then goes out and details show its transaction.
    const funder = await newBuyer(10_000_000n);
    const { opt, td } = await f.option(funding, funder);
    expect(opt.amount.value).toBe('7000000');
    expect((await f.confirm(funding, opt.id, await funder.signTypedData(td))).status).toBe(200);
    await refunded(r.body.refund.id);
    await eventually(async () => expect(await balanceOf(buyer.address)).toBe(100_000_000n), 30_000);
    const after = (await shop.asMerchant('GET', `/v1/payments/${id}`)).body.refunds;
    expect(after).toEqual([
      { ...r.body.refund, status: 'succeeded', txId: expect.stringMatching(/^0x[0-9a-f]{64}$/), fundingInstructions: null },
    ]);
    expect((await receiptOf(after[0].txId)).status).toBe('success');
    expect(await svc.db('refunds').where({ payment_id: id })).toHaveLength(1);
  });
});
