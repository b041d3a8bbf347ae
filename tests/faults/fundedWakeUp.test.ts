import { balanceOf, newBuyer } from '../support/chain';
import { eventually } from '../support/eventually';
import { gatewayPay, proxiedStack, refundReaching, refundShop, send, usdPayment } from './kit';

// A refund short of funds waits in requires_funding for its funding payment, and goes out when the relayer's collect
// of that payment is final: the step after a collect looks at the account's waiting refunds (src/usecases/relayer/paymentSteps.ts,
// afterCollected). The reconciler's idle (CHAIN_STRANDED_AFTER_MS) is set far beyond the test, so only that wake-up
// can send the refund in time. (fundedElsewhere: the same when another holder of the collector's key collected it.)

jest.setTimeout(120_000);

describe('a refund waiting for its funding payment', () => {
  const stacked = proxiedStack('paygate_faults_funded_wakeup', { CHAIN_STRANDED_AFTER_MS: '600000' });

  it('goes out when the relayer has collected the funding, not at the reconciler’s next look', async () => {
    const { stack, db, url } = await stacked.start();
    const { merchant, wallet, ...shop } = await refundShop(url, stack.dbUrl, 'Funded Wake-up');

    // A USD 5.00 payment, settled: nothing of the account's is left at the collector, so its refund waits for funds.
    const buyer = await newBuyer(5_000_000n);
    const id = await usdPayment(url, shop.headers, 'paid', '500');
    expect((await gatewayPay(url, wallet, id, buyer)).status).toBe(200);
    await eventually(
      () => db('payments').where({ id }).first(),
      (p) => p.settled_at !== null,
      30_000,
    );
    expect(await balanceOf(buyer.address)).toBe(0n);
    const refund = await send(url, 'POST', '/v1/refunds', merchant, { paymentId: id });
    expect([refund.status, refund.body.refund.status]).toEqual([200, 'requires_funding']);

    const fundingId = refund.body.refund.fundingInstructions.paymentId as string;
    expect((await gatewayPay(url, wallet, fundingId, await newBuyer(5_000_000n))).status).toBe(200);
    const done = await refundReaching(url, merchant, refund.body.refund.id, 'succeeded');
    expect(done.status).toBe('succeeded');
    expect(await balanceOf(buyer.address)).toBe(5_000_000n);
    expect(await db('chain_transactions').where({ payment_id: fundingId, purpose: 'collect' }).pluck('status')).toEqual(['confirmed']);
  });
});
