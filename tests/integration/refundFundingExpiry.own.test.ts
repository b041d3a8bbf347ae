import { balanceOf } from '../support/chain';
import { eventually, flow, setup, Shop, useChainSuite } from '../support/chainSuite';
import { AT_FLOOR, refundHelpers } from '../support/refundsSuite';
import { client, startTestService, TestService } from '../support/service';

// A refund nobody funds (docs/ledger.md "Refunds", Funding): each funding payment that expires unpaid gets a
// successor, but only up to REFUND_FUNDING_MAX_PAYMENTS; then the refund fails `funding_expired` instead of adding a
// payment to the merchant's list every 24 hours forever. Here the bound is 2, and the funding payments are expired
// by moving their `expires_at` into the past (the sweeper then expires them as it would after 24 hours).

useChainSuite();

type Flow = ReturnType<typeof flow>;

describe('a refund whose funding payments all expire unpaid', () => {
  let svc: TestService;
  let f: Flow;
  let shop: Shop;
  const { preview, refund, paid } = refundHelpers(() => ({ svc, shop }));

  beforeAll(async () => {
    svc = await startTestService({
      ...AT_FLOOR,
      REFUND_FUNDING_MAX_PAYMENTS: '2',
      CHAIN_STRANDED_AFTER_MS: '1000',
      SWEEP_INTERVAL_MS: '200',
    });
    const s = await setup(svc);
    shop = s.shop;
    f = flow(svc.url, shop, s.gw);
  });
  afterAll(async () => {
    await svc.close();
  });

  const expire = (paymentId: string) =>
    svc
      .db('payments')
      .where({ id: paymentId })
      .update({ expires_at: svc.db.raw("now() - interval '1 second'") });
  const fundingOf = async (refundId: string) => (await preview()('GET', `/v1/refunds/${refundId}`)).body.refund;

  it('gets a second funding payment when the first expires, then fails funding_expired; a new refund may be made', async () => {
    const { id, buyer } = await paid(f, '200');
    await f.until(id, (x) => x.settlement !== null); // settled: the collector holds nothing of the account
    const before = await balanceOf(buyer.address);
    const created = await refund(id);
    expect(created.status).toBe(200);
    expect(created.body.refund.status).toBe('requires_funding');
    const first = created.body.refund.fundingInstructions.paymentId as string;

    await expire(first);
    const second = await eventually(async () => {
      const r = await fundingOf(created.body.refund.id);
      if (r.fundingInstructions?.paymentId === first || !r.fundingInstructions) throw new Error(JSON.stringify(r));
      return r.fundingInstructions.paymentId as string;
    }, 30_000);
    expect((await shop.asMerchant('GET', `/v1/payments/${first}`)).body.status).toBe('expired');

    await expire(second);
    const failed = await eventually(async () => {
      const r = await fundingOf(created.body.refund.id);
      if (r.status !== 'failed') throw new Error(JSON.stringify(r));
      return r;
    }, 30_000);
    expect(failed).toMatchObject({ status: 'failed', failureCode: 'funding_expired', fundingInstructions: null, txId: null });
    // No third funding payment, nothing moved, and the payment no longer reads as refunded (stable details too).
    expect(await svc.db('refund_fundings').where({ refund_id: created.body.refund.id })).toHaveLength(2);
    expect(await svc.db('payments').where({ merchant_id: shop.merchantId }).where('reference_id', 'like', 'refund:%')).toHaveLength(2);
    expect(await svc.db('chain_transactions').where({ payment_id: id, purpose: 'refund' })).toHaveLength(0);
    expect(await balanceOf(buyer.address)).toBe(before);
    const stable = (await shop.asMerchant('GET', `/v1/payments/${id}`)).body;
    expect(stable.refundedAt ?? null).toBeNull();
    // What a stable-only partner polls: the refund failed, why, and that nothing is left to pay.
    const { livemode: _preview, ...asStable } = failed;
    expect(stable.refunds).toEqual([asStable]);
    expect(stable.refunds[0]).toMatchObject({ status: 'failed', failureCode: 'funding_expired', fundingInstructions: null });
    const events = (await preview()('GET', `/v1/events?paymentId=${id}&limit=100`)).body.events as { type: string }[];
    expect(events.filter((e) => e.type === 'refund.failed')).toHaveLength(1);

    // Its amount may be refunded again: a new refund, with a funding payment of its own.
    const again = await client(svc.url, { 'Api-Key': shop.apiKey, 'Merchant-Id': shop.merchantId })('POST', '/v1/refunds', {
      body: { paymentId: id },
    });
    expect(again.status).toBe(200);
    expect(again.body.refund).toMatchObject({
      status: 'requires_funding',
      fundingInstructions: { paymentId: expect.stringMatching(/^pay_/) },
    });
    const states = (await shop.asMerchant('GET', `/v1/payments/${id}`)).body.refunds.map((r: { id: string; status: string }) => [
      r.id,
      r.status,
    ]);
    expect(states).toEqual([
      [created.body.refund.id, 'failed'],
      [again.body.refund.id, 'requires_funding'],
    ]);
    expect((await preview()('GET', `/v1/refunds?paymentId=${id}`)).body.data.map((r: { status: string }) => r.status)).toEqual([
      'failed',
      'requires_funding',
    ]);
  }, 120_000);
});
