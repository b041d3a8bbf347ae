import path from 'node:path';
import { getAddress } from 'viem';
import { configuredChain } from '../../src/chain/chains';
import { loadConfig } from '../../src/config';
import { setSchedule } from '../../src/db/settlementBatchesRepo';
import { parseAssetId } from '../../src/domain/caip';
import { createLogger } from '../../src/logger';
import { InsufficientBalance } from '../../src/usecases/ledger/records';
import { Submissions, type Submission } from '../../src/usecases/relayer/submissions';
import { balanceOf, DEVNET_USDC, newBuyer, newWallet } from '../support/chain';
import { eventually } from '../support/eventually';
import { newKey } from '../support/service';
import { gatewayPay, partner, proxiedStack, usdPayment } from './kit';

// A relayer key's transfers are stored in batches (one nonce lock, one commit: src/usecases/relayer/submissions.ts), and
// each reserves what it sends from its account's balance at the key. When one of a batch is short, the others are
// stored all the same (each tried alone), not failed with it. Three refund transfers of one account's payments are
// submitted at once from the collector: the first goes alone, the other two wait and go together as the next batch,
// where the last one asks for more than the account has there. Both others reach the chain.

jest.setTimeout(120_000);

describe('a batch of transfers with one short of funds', () => {
  const stacked = proxiedStack('paygate_faults_short_in_batch');

  it('stores the transfers the balance covers and refuses only the short one', async () => {
    const { stack, db, url } = await stacked.start();
    const shop = await partner(url, stack.dbUrl, 'Short In Batch');
    // Settlements once a day: the payments' shares stay at the collector.
    expect(await setSchedule(db, shop.accountId, 24 * 60)).toBe(true);
    const wallet = { 'Api-Key': (await newKey(shop.accountId, 'wallet', stack.dbUrl)).apiKey };
    const buyer = await newBuyer(15_000_000n);
    const ids: string[] = [];
    for (const ref of ['one', 'two', 'three']) {
      const id = await usdPayment(url, shop.headers, ref, '500');
      expect((await gatewayPay(url, wallet, id, buyer)).status).toBe(200);
      ids.push(id);
    }
    const paid = await eventually(
      () => db('payments').whereIn('id', ids).pluck('status'),
      (s) => s.length === 3 && s.every((x) => x === 'succeeded'),
      30_000,
    );
    expect(paid).toEqual(['succeeded', 'succeeded', 'succeeded']);

    // The service's own chain settings, in this process: the collector is its relayer key.
    const config = loadConfig({ ...process.env, ...stack.env }, path.join(__dirname, '../..'));
    const chain = configuredChain(config, 'eip155:31337')!;
    const collector = getAddress(chain.held[0]);
    const to = newWallet();
    const fees = await chain.fees();
    const transfer = (paymentId: string, amount: bigint): Submission => {
      const call = chain.transferCall(parseAssetId(DEVNET_USDC).assetReference, to, amount);
      const tx = { chainId: chain.caip2, sender: collector, purpose: 'refund' as const, paymentId, to: call.to, calldata: call.data };
      return {
        tx: { ...tx, gasLimit: 150_000n, ...fees },
        call,
        fees,
        reserve: { kind: 'refund_reserved', accountId: shop.accountId, asset: DEVNET_USDC, amount },
      };
    };
    const submissions = new Submissions(db, createLogger('silent'));
    const outcomes = await Promise.allSettled([
      submissions.submit(chain, collector, transfer(ids[0], 1_000_000n)),
      submissions.submit(chain, collector, transfer(ids[1], 1_000_000n)),
      submissions.submit(chain, collector, transfer(ids[2], 50_000_000n)),
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.kind : o.reason.constructor.name))).toEqual([
      'stored',
      'stored',
      InsufficientBalance.name,
    ]);
    expect(
      await db('chain_transactions').whereIn('payment_id', ids).where({ purpose: 'refund' }).orderBy('nonce').pluck('payment_id'),
    ).toEqual([ids[0], ids[1]]);
    // The service's monitor confirms both: 2.00 reached the chain's recipient.
    expect(
      await eventually(
        () => balanceOf(to),
        (b) => b === 2_000_000n,
        30_000,
      ),
    ).toBe(2_000_000n);
  });
});
