import { createWalletClient, getAddress, http, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { devnetChain } from '../../src/chain/devnet';
import { authorizationCall } from '../../src/chain/evm';
import { balanceOf, chainClient, newBuyer } from '../support/chain';
import { eventually } from '../support/eventually';
import { proxiedStack, refundReaching, refundShop, send, usdPayment } from './kit';

// A refund short of funds waits in requires_funding for its funding payment, and goes out as soon as that payment is
// collected: also when the collect was sent by another holder of the collector's key. The service's own collect cannot
// reach the node (broadcasts refused) while the other holder's takes its nonce; then the relayer finds its transaction
// dropped, the authorization used by that one, and succeeds the payment with it (src/usecases/relayer/paymentSteps.ts,
// usedElsewhere). The reconciler's idle (CHAIN_STRANDED_AFTER_MS) is set far beyond the test, so only the wake-up on
// that success can send the refund in time.

jest.setTimeout(120_000);

describe('a refund whose funding another holder of the collector key collected', () => {
  const stacked = proxiedStack('paygate_faults_funded_elsewhere', { CHAIN_STRANDED_AFTER_MS: '600000' });

  it('goes out as soon as the funding payment succeeds with that transaction', async () => {
    const { proxy, stack, db, url } = await stacked.start();
    const { merchant, wallet, ...shop } = await refundShop(url, stack.dbUrl, 'Funded Elsewhere');
    const signed = async (id: string, payer: PrivateKeyAccount) => {
      const opt = (await send(url, 'POST', `/v1/gateway/payment/${id}/options`, wallet, { accounts: [`eip155:31337:${payer.address}`] }))
        .body.options[0];
      const td = JSON.parse(opt.actions[0].data.params[1]);
      return { optionId: opt.id as string, td, sig: (await payer.signTypedData(td)) as Hex };
    };
    const confirm = (id: string, s: { optionId: string; sig: Hex }) =>
      send(url, 'POST', `/v1/gateway/payment/${id}/confirm`, wallet, {
        optionId: s.optionId,
        results: [{ type: 'walletRpc', data: [s.sig] }],
      });

    // A USD 5.00 payment, settled: nothing of the account's is left at the collector, so its refund waits for funds.
    const buyer = await newBuyer(10_000_000n);
    const id = await usdPayment(url, shop.headers, 'paid', '500');
    expect((await confirm(id, await signed(id, buyer))).status).toBe(200);
    const settled = await eventually(
      () => db('payments').where({ id }).first(),
      (p) => p.settled_at !== null,
      30_000,
    );
    expect(settled.settled_at).not.toBeNull();
    const refund = await send(url, 'POST', '/v1/refunds', merchant, { paymentId: id });
    expect([refund.status, refund.body.refund.status]).toEqual([200, 'requires_funding']);

    // The funder confirms; the service's collect is stored but cannot be broadcast, and another holder of the
    // collector's key sends the same authorization, taking the nonce the service's transaction has.
    const fundingId = refund.body.refund.fundingInstructions.paymentId as string;
    const funder = await newBuyer(10_000_000n);
    const f = await signed(fundingId, funder);
    expect(f.td.primaryType).toBe('ReceiveWithAuthorization');
    const collector = privateKeyToAccount(stack.env.DEVNET_RELAYER_KEYS as Hex);
    expect(getAddress(f.td.message.to)).toBe(collector.address);
    proxy.refuse('eth_sendRawTransaction');
    expect((await confirm(fundingId, f)).status).toBe(200);
    const stored = await eventually(
      () => db('chain_transactions').where({ payment_id: fundingId, purpose: 'collect' }).first(),
      (t) => t !== undefined,
      20_000,
    );
    const elsewhere = await createWalletClient({
      chain: devnetChain(process.env.DEVNET_RPC_URL!),
      transport: http(process.env.DEVNET_RPC_URL!),
      account: collector,
    }).sendTransaction({ ...authorizationCall(f.td, f.sig), nonce: Number(stored.nonce) });
    expect((await chainClient().waitForTransactionReceipt({ hash: elsewhere })).status).toBe('success');
    proxy.up();

    const done = await refundReaching(url, merchant, refund.body.refund.id, 'succeeded');
    expect(done.status).toBe('succeeded');
    expect(await balanceOf(buyer.address)).toBe(10_000_000n);
    // The funding payment succeeded with the other holder's transaction; the service's own was dropped.
    expect(await db('payments').where({ id: fundingId }).first()).toMatchObject({ status: 'succeeded', tx_hash: elsewhere });
    expect(await db('chain_transactions').where({ payment_id: fundingId }).pluck('status')).toEqual(['dropped']);
  });
});
