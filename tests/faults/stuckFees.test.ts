import { getAddress, parseGwei, type Hex } from 'viem';
import { privateKeyToAddress, type PrivateKeyAccount } from 'viem/accounts';
import { createDb } from '../../src/db/knex';
import { loggablePaymentId } from '../../src/domain/gatewayId';
import { anvil, balanceOf, chainClient, newBuyer, useOwnChain } from '../support/chain';
import { eventually } from '../support/eventually';
import { newKey } from '../support/service';
import { figures, ownStack, partner, send, sleep } from './kit';

// A transaction stuck in the pool (issue 28, finding 3): the relayer used to raise its fees 12.5 % every time it
// counted as stuck, forever, with no ceiling on the development chain, also after the authorization's validBefore
// had passed. Here the chain is this file's own, mining only when the test says so, and the network's fees are the
// base fee of the blocks the test mines (anvil refuses and drops transactions offering less). The relayer must
// leave a stuck transaction's fees alone while the network asks no more; follow the network when it asks more, at
// most CHAIN_MAX_FEE_BUMPS times and never above the ceiling, saying so (error log, metric) when it can follow no
// further; and once the chain is past validBefore, replace the transaction by a 0-value transfer to itself at the
// same nonce, failing the payment with authorization_expired when that is final.

useOwnChain();
jest.setTimeout(240_000);

const CEILING = parseGwei('20');
const BOUND = 2;
const bumped = (wei: bigint) => (wei * 1125n) / 1000n + 1n;

describe('a transaction stuck in the pool while fees rise, then past its validBefore', () => {
  it('fees follow the network within the bound and the ceiling; past validBefore the nonce is cancelled and the payment fails', async () => {
    const stack = await ownStack('paygate_faults_fees', {
      CHAIN_STUCK_AFTER_MS: '1000',
      CHAIN_MAX_FEE_BUMPS: String(BOUND),
      DEVNET_MAX_FEE_PER_GAS_WEI: String(CEILING),
      METRICS_DB_CACHE_MS: '0',
    });
    const db = createDb(stack.dbUrl, 2);
    const relayer = privateKeyToAddress(stack.env.DEVNET_RELAYER_KEYS as Hex);
    try {
      const svc = await stack.start();
      const shop = await partner(svc.url, stack.dbUrl, 'Stuck Fees');
      const wallet = { 'Api-Key': (await newKey(shop.accountId, 'wallet', stack.dbUrl)).apiKey };
      const buyers = [await newBuyer(50_000_000n), await newBuyer(50_000_000n)]; // funded while blocks are still mined
      const nonceBefore = await chainClient().getTransactionCount({ address: relayer });
      const gasBefore = await chainClient().getBalance({ address: relayer });
      await anvil().setAutomine(false);

      /** A USD 50.00 payment confirmed by `buyer`; its authorization's typed data. */
      const confirmed = async (ref: string, buyer: PrivateKeyAccount) => {
        const id: string = (
          await send(svc.url, 'POST', '/v1/payments', shop.headers, { referenceId: ref, amount: { unit: 'iso4217/USD', value: '5000' } })
        ).body.paymentId;
        const opt = (
          await send(svc.url, 'POST', `/v1/gateway/payment/${id}/options`, wallet, { accounts: [`eip155:31337:${buyer.address}`] })
        ).body.options[0];
        const td = JSON.parse(opt.actions[0].data.params[1]);
        const c = await send(svc.url, 'POST', `/v1/gateway/payment/${id}/confirm`, wallet, {
          optionId: opt.id,
          results: [{ type: 'walletRpc', data: [await buyer.signTypedData(td)] }],
        });
        expect([c.status, c.body.status]).toEqual([200, 'processing']);
        return { id, td };
      };
      const txOf = (paymentId: string) => db('chain_transactions').where({ payment_id: paymentId, purpose: 'collect' }).first();
      /** The next block's base fee (in gwei), mined empty: the pending transactions offer less. */
      const baseFee = async (gwei: string) => {
        await anvil().setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei(gwei) });
        await anvil().mine({ blocks: 1 });
        return (await chainClient().estimateFeesPerGas()).maxFeePerGas;
      };
      const limitLogs = () =>
        svc.logs.filter((l: any) => l.level >= 50 && l.limit).map((l: any) => ({ paymentId: l.paymentId, limit: l.limit }));
      /** The relayer's paygate_relayer_fee_limited_transactions (no series: no open transaction). */
      const limitedGauge = async () =>
        Number(
          new RegExp(`paygate_relayer_fee_limited_transactions\\{chain="eip155:31337",relayer="${relayer}"\\} (\\d+)`).exec(
            await (await fetch(`${svc.url}/metrics`)).text(),
          )?.[1] ?? 0,
        );

      // 1. Stuck while the network asks no more than it offers: re-broadcast, never bumped.
      const a = await confirmed('fees-a', buyers[0]);
      const signed = await eventually(
        () => txOf(a.id),
        (t) => Boolean(t?.broadcast_at),
        30_000,
      );
      await sleep(5000);
      const calm = await txOf(a.id);
      expect({ maxFee: calm.max_fee_per_gas, replacements: calm.previous_hashes.length }).toEqual({
        maxFee: signed.max_fee_per_gas,
        replacements: 0,
      });

      // 2. The network asks more: the replacement offers what it asks, up to CHAIN_MAX_FEE_BUMPS times.
      const followed: bigint[] = [];
      for (const [bumps, gwei] of [
        [1, '5'],
        [2, '10'],
      ] as const) {
        const network = await baseFee(gwei);
        const t = await eventually(
          () => txOf(a.id),
          (x) => x.fee_bumps === bumps,
          15_000,
        );
        expect({ bumps: t.fee_bumps, maxFee: BigInt(t.max_fee_per_gas) }).toEqual({ bumps, maxFee: network });
        followed.push(network);
      }
      await baseFee('15'); // once more: beyond the bound
      await eventually(
        () => txOf(a.id),
        (x) => x.fee_limited_at !== null,
        15_000,
      );
      await sleep(3000);
      const atBound = await txOf(a.id);
      expect({ bumps: atBound.fee_bumps, maxFee: BigInt(atBound.max_fee_per_gas) }).toEqual({ bumps: BOUND, maxFee: followed[1] });
      expect(limitLogs()).toEqual([{ paymentId: loggablePaymentId(a.id), limit: 'bumps' }]);

      // 3. A transaction signed just under the ceiling, then the network far above it: no replacement beyond it.
      const b = await confirmed('fees-b', buyers[1]);
      const bSigned = await eventually(
        () => txOf(b.id),
        (t) => Boolean(t),
        30_000,
      );
      await baseFee('50');
      await eventually(
        () => txOf(b.id),
        (x) => x.fee_limited_at !== null,
        15_000,
      );
      await sleep(3000);
      const atCeiling = await txOf(b.id);
      expect({ bumps: atCeiling.fee_bumps, maxFee: atCeiling.max_fee_per_gas }).toEqual({ bumps: 0, maxFee: bSigned.max_fee_per_gas });
      expect(BigInt(atCeiling.max_fee_per_gas)).toBeLessThanOrEqual(CEILING);
      expect(limitLogs()).toEqual([
        { paymentId: loggablePaymentId(a.id), limit: 'bumps' },
        { paymentId: loggablePaymentId(b.id), limit: 'ceiling' },
      ]);
      expect(await limitedGauge()).toBe(2);

      // 4. The chain passes both authorizations' validBefore: each nonce is taken back by a 0-value transfer to the
      //    relayer itself, offering a replacement step over the stuck transaction (the ceiling, where that is more).
      const validBefore = BigInt(Math.max(Number(a.td.message.validBefore), Number(b.td.message.validBefore)));
      await anvil().setNextBlockTimestamp({ timestamp: validBefore + 10n });
      await baseFee('50');
      const cancelled = await eventually(
        () => Promise.all([txOf(a.id), txOf(b.id)]),
        // Broadcast too: a block mined before the node has a cancellation would mine the stuck transaction (reverted).
        (ts) => ts.every((t) => t.cancelled_at !== null && t.broadcast_at !== null),
        15_000,
      );
      for (const [i, t] of cancelled.entries()) {
        const before = [atBound, atCeiling][i];
        expect({ to: getAddress(t.to_address), calldata: t.calldata, nonce: t.nonce }).toEqual({
          to: relayer,
          calldata: '0x',
          nonce: before.nonce,
        });
        const step = bumped(BigInt(before.max_fee_per_gas));
        expect(BigInt(t.max_fee_per_gas)).toBe(step > CEILING ? step : CEILING);
      }
      // The payments wait in processing until a cancellation is final.
      expect((await db('payments').whereIn('id', [a.id, b.id]).select('status')).map((p) => p.status)).toEqual([
        'processing',
        'processing',
      ]);

      // 5. Fees fall: the cancellations are mined, and the payments fail with authorization_expired.
      await baseFee('1');
      const done = await eventually(
        async () => {
          await anvil().mine({ blocks: 1 });
          return db('payments').whereIn('id', [a.id, b.id]).orderBy('reference_id').select('id', 'status', 'failure_code');
        },
        (ps) => ps.every((p) => p.status !== 'processing'),
        30_000,
        500,
      );
      expect(done.map((p) => [p.status, p.failure_code])).toEqual([
        ['failed', 'authorization_expired'],
        ['failed', 'authorization_expired'],
      ]);
      const rows = await Promise.all([txOf(a.id), txOf(b.id)]);
      const receipts = await Promise.all(rows.map((t) => chainClient().getTransactionReceipt({ hash: t.tx_hash })));
      // Each nonce is taken by its cancellation, a 0-value transfer to the relayer ('dropped'), or by the stuck
      // transaction reverting past its validBefore ('reverted'): while the base fee is above them, anvil does not show
      // the cancellations (eth_getTransactionByHash finds none), and when fees fall it may mine the stuck one, as
      // any node of a real network still holding it may. Nothing moves either way; at least one cancellation is mined.
      const taken = rows.map((t, i) => {
        const r = receipts[i];
        return t.status === 'dropped'
          ? [t.status, r.status, getAddress(r.from), getAddress(r.to!), r.gasUsed]
          : [t.status, r.status, getAddress(r.from), getAddress(r.to!) === relayer ? 'the relayer' : 'the token'];
      });
      for (const x of taken)
        expect([
          ['dropped', 'success', relayer, relayer, 21_000n],
          ['reverted', 'reverted', relayer, 'the token'],
        ]).toContainEqual(x);
      expect(taken.filter((x) => x[0] === 'dropped').length).toBeGreaterThan(0);
      expect(await chainClient().getTransactionCount({ address: relayer })).toBe(nonceBefore + 2);
      expect(await Promise.all(buyers.map((x) => balanceOf(x.address)))).toEqual([50_000_000n, 50_000_000n]);
      expect(await limitedGauge()).toBe(0);
      const spent = gasBefore - (await chainClient().getBalance({ address: relayer }));
      figures('stuck-fees', {
        ceilingWei: CEILING.toString(),
        bumps: BOUND,
        followedWei: followed.map(String),
        cancelMaxFeeWei: cancelled.map((t) => t.max_fee_per_gas),
        gasSpentWei: spent.toString(),
      });
    } finally {
      await anvil()
        .setAutomine(true)
        .catch(() => undefined);
      await db.destroy();
      await stack.close();
    }
  });
});
