import { balanceOf, newBuyer } from '../support/chain';
import { eventually } from '../support/eventually';
import type { RpcCall } from '../support/rpcProxy';
import { gatewayPay, proxiedStack, refundReaching, refundShop, send, usdPayment } from './kit';

// A refund step reads the account's balance at the collector as covering it, then simulates its transfer; a
// settlement that read the payment before the refund existed may reserve and send the payment's share in between
// (seen in CI: a refund made right after its payment succeeded failed with insufficient_funds). The node's
// "transfer amount exceeds balance" is then a verdict on a stale reading, not the token refusing the refund: the
// refund waits for funds as if it had read the balance after the settlement (src/usecases/relayer/refundSends.ts). Here both
// simulations are held at the RPC proxy, so that the settlement's transfer is on chain when the node judges the refund.

jest.setTimeout(120_000);

const TRANSFER = '0xa9059cbb';
const transferSimulation = (to: (data: string) => boolean) => (c: RpcCall) =>
  c.method === 'eth_estimateGas' && String(c.params?.[0]?.data ?? '').startsWith(TRANSFER) && to(String(c.params?.[0]?.data));

describe("a refund whose collector's balance a settlement took since it was read", () => {
  const stacked = proxiedStack('paygate_faults_stale_coverage');

  it('waits for funds instead of failing, and succeeds once funded', async () => {
    const { proxy, stack, db, url } = await stacked.start();
    const { merchant, wallet, ...shop } = await refundShop(url, stack.dbUrl, 'Stale Coverage');
    const buyer = await newBuyer(5_000_000n);
    const toBuyer = (data: string) => data.includes(buyer.address.slice(2).toLowerCase());

    // The settlement's simulation (a transfer to anyone but the buyer) is held once the payment is collected.
    const settlement = proxy.holdRequest(transferSimulation((d) => !toBuyer(d)));
    const id = await usdPayment(url, shop.headers, 'stale-coverage', '500');
    expect((await gatewayPay(url, wallet, id, buyer)).status).toBe(200);
    await settlement.arrived;
    expect((await db('payments').where({ id }).first()).status).toBe('succeeded');

    // The refund reads the share as still at the collector; its simulation is held too.
    const refundSim = proxy.holdRequest(transferSimulation(toBuyer));
    const created = await send(url, 'POST', '/v1/refunds', merchant, { paymentId: id });
    expect([created.status, created.body.refund.status]).toEqual([200, 'pending']);
    const refundId = created.body.refund.id as string;
    await refundSim.arrived;

    // The settlement goes first: stored, reserved and on chain before the node judges the refund.
    settlement.release();
    await eventually(
      () => db('chain_transactions').where({ payment_id: id, purpose: 'settle' }).first(),
      (t) => t?.status === 'confirmed',
      30_000,
    );
    refundSim.release();

    const waiting = await refundReaching(url, merchant, refundId, 'requires_funding', 30_000);
    expect(waiting.status).toBe('requires_funding');
    expect(waiting.failureCode ?? null).toBeNull();
    const funding = waiting.fundingInstructions;
    expect(funding).toMatchObject({ paymentId: expect.any(String) });

    // Funded by another wallet, the refund goes out: the buyer has its 5.00 back.
    const funder = await newBuyer(10_000_000n);
    expect((await gatewayPay(url, wallet, funding.paymentId, funder)).status).toBe(200);
    expect((await refundReaching(url, merchant, refundId, 'succeeded')).status).toBe('succeeded');
    expect(await balanceOf(buyer.address)).toBe(5_000_000n);
  });
});
