import { findRefund } from '../../src/db/refundsRepo';
import { setSchedule } from '../../src/db/settlementBatchesRepo';
import { createLogger } from '../../src/logger';
import { waitForFunds } from '../../src/usecases/relayer/refundSends';
import { balanceOf, newBuyer } from '../support/chain';
import { eventually } from '../support/eventually';
import { gatewayPay, proxiedStack, refundReaching, refundShop, send, usdPayment } from './kit';

// A refund step that read the account's balance as short acts on that reading only after checking it again under the
// refund's row lock (src/usecases/relayer/refundSends.ts, waitForFunds). Two steps of one payment run at once when two collects
// of the account are confirmed together (each starts the account's waiting refunds): the one that read before a
// funding was credited must not undo what the other did with it. Here the other step has stored the refund's
// transaction (its broadcast held back by the RPC proxy, so it stays on its way), and the stale verdict arrives then:
// the refund stays pending, no funding payment is asked for, and once the node takes broadcasts again it goes out.

jest.setTimeout(120_000);

describe('a refund step whose short reading went stale', () => {
  const stacked = proxiedStack('paygate_faults_stale_short');

  it('leaves a refund whose transaction is on its way as it is, and asks for no funding', async () => {
    const { proxy, stack, db, url } = await stacked.start();
    const { merchant, wallet, ...shop } = await refundShop(url, stack.dbUrl, 'Stale Short');
    // Settlements once a day: the payment's share stays at the collector, and its refund is sent from there.
    expect(await setSchedule(db, shop.accountId, 24 * 60)).toBe(true);

    const buyer = await newBuyer(10_000_000n);
    const id = await usdPayment(url, shop.headers, 'stale', '500');
    expect((await gatewayPay(url, wallet, id, buyer)).status).toBe(200);
    await eventually(
      () => db('payments').where({ id }).first(),
      (p) => p.status === 'succeeded',
      30_000,
    );
    expect(await balanceOf(buyer.address)).toBe(5_000_000n);

    // The refund's transaction is stored, and cannot reach the node.
    proxy.refuse('eth_sendRawTransaction');
    const created = await send(url, 'POST', '/v1/refunds', merchant, { paymentId: id });
    expect([created.status, created.body.refund.status]).toEqual([200, 'pending']);
    const refundId = created.body.refund.id as string;
    await eventually(
      () => db('chain_transactions').where({ payment_id: id, purpose: 'refund' }).first(),
      (t) => t?.status === 'pending',
      20_000,
    );

    // The other step's verdict, read before: short.
    const refund = (await findRefund(db, refundId))!;
    await waitForFunds({ db, log: createLogger('silent'), fundingMaxPayments: 7 }, refund, async () => false);
    const after = (await send(url, 'GET', `/v1/refunds/${refundId}`, merchant)).body.refund;
    expect(after.status).toBe('pending');
    expect(after.fundingInstructions ?? null).toBeNull();
    expect(await db('refund_fundings').where({ refund_id: refundId })).toHaveLength(0);

    proxy.up();
    const done = await refundReaching(url, merchant, refundId, 'succeeded');
    expect(done.status).toBe('succeeded');
    expect(await balanceOf(buyer.address)).toBe(10_000_000n);
  });
});
