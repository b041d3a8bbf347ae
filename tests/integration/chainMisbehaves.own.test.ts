import { type Hex } from 'viem';
import { anvil, balanceOf, chainClient, newBuyer, receiptOf } from '../support/chain';
import { Shop, eventually, flow, setup, useChainSuite } from '../support/chainSuite';
import { TestService, startTestService } from '../support/service';

useChainSuite();

describe('when the chain misbehaves (own service and relayer key; chain state restored after)', () => {
  let svc: TestService;
  let f: ReturnType<typeof flow>;
  let snapshot: Hex;

  let shop: Shop;
  beforeEach(async () => {
    snapshot = await anvil().snapshot();
    svc = await startTestService({ DEVNET_CONFIRMATIONS: '3' });
    const s = await setup(svc);
    shop = s.shop;
    f = flow(svc.url, s.shop, s.gw);
  });
  const shopStatus = (id: string, maxPollMs: number) => shop.asMerchant('GET', `/v1/payments/${id}/status?maxPollMs=${maxPollMs}`);
  afterEach(async () => {
    await svc.close();
    await anvil().setAutomine(true);
    await anvil().revert({ id: snapshot });
  });

  it('an authorization that expires between confirm and inclusion ends failed with authorization_expired', async () => {
    const buyer = await newBuyer(10_000_000n);
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    await anvil().setAutomine(false);
    expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).body.status).toBe('processing');
    await eventually(async () => expect((await svc.db('chain_transactions').where({ payment_id: id }).first())?.broadcast_at).toBeTruthy());
    // The next block is past the authorization's validBefore.
    await anvil().setNextBlockTimestamp({ timestamp: BigInt(td.message.validBefore) + 10n });
    await anvil().mine({ blocks: 3 });
    const d = await f.until(id, (x) => x.status === 'failed');
    expect(d.failureCode).toBe('authorization_expired');
    const tx = await svc.db('chain_transactions').where({ payment_id: id }).first();
    expect(tx.status).toBe('reverted');
    expect((await receiptOf(tx.tx_hash)).status).toBe('reverted');
    expect(await balanceOf(buyer.address)).toBe(10_000_000n);
  });

  it('a processing payment past its expiresAt: a status long-poll waits for the chain instead of answering at once', async () => {
    const buyer = await newBuyer(10_000_000n);
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    await anvil().setAutomine(false);
    expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).body.status).toBe('processing');
    await svc
      .db('payments')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 60_000) });
    const waiting = f.details(id).then(() => shopStatus(id, 15_000));
    await new Promise((r) => setTimeout(r, 500));
    await anvil().mine({ blocks: 3 });
    expect((await waiting).body.status).toBe('succeeded');
  });

  it('a transaction stuck in the pool while fees rise is replaced at the same nonce with higher fees; the replacement pays', async () => {
    const stuck = await startTestService({ CHAIN_STUCK_AFTER_MS: '1000' });
    try {
      const s = await setup(stuck);
      const g = flow(stuck.url, s.shop, s.gw);
      const buyer = await newBuyer(10_000_000n);
      const id = await g.pay('1000');
      const { opt, td } = await g.option(id, buyer);
      await anvil().setAutomine(false);
      expect((await g.confirm(id, opt.id, await buyer.signTypedData(td))).body.status).toBe('processing');
      const first = await eventually(async () => {
        const t = await stuck.db('chain_transactions').where({ payment_id: id }).first();
        if (!t?.broadcast_at) throw new Error('not broadcast yet');
        return t;
      });
      // The network asks more: an empty block whose base fee is twice what the transaction offers.
      await anvil().setNextBlockBaseFeePerGas({ baseFeePerGas: BigInt(first.max_fee_per_gas) * 2n });
      await anvil().mine({ blocks: 1 });
      const replaced = await eventually(async () => {
        const t = await stuck.db('chain_transactions').where({ id: first.id }).first();
        if (!t.previous_hashes.length) throw new Error('not replaced yet');
        return t;
      });
      expect(replaced.nonce).toBe(first.nonce);
      expect(replaced.previous_hashes).toEqual([first.tx_hash]);
      expect(BigInt(replaced.max_fee_per_gas)).toBeGreaterThanOrEqual((BigInt(first.max_fee_per_gas) * 1125n) / 1000n);
      await eventually(async () =>
        expect((await stuck.db('chain_transactions').where({ id: first.id }).first()).broadcast_at).toBeTruthy(),
      );
      await anvil().mine({ blocks: 1 });
      const done = await g.until(id, (x) => x.status === 'succeeded');
      expect(done.info.txId).not.toBe(first.tx_hash);
      expect(await receiptOf(first.tx_hash).catch(() => null)).toBeNull();
      expect((await receiptOf(done.info.txId)).status).toBe('success');
    } finally {
      await stuck.close();
    }
  });

  it('a reorg before the confirmation depth: included again, succeeded at depth, exactly one settlement', async () => {
    const buyer = await newBuyer(10_000_000n);
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).body.status).toBe('processing');
    const first = await eventually(async () => {
      const t = await svc.db('chain_transactions').where({ payment_id: id, purpose: 'collect' }).first();
      if (t?.status !== 'mined') throw new Error('not mined yet');
      return t;
    });
    // Replace the block that holds it (depth 1 of the 3 needed) with an empty one.
    await chainClient().request({ method: 'anvil_reorg' as never, params: [1, []] as never });
    expect(await receiptOf(first.tx_hash).catch(() => null)).toBeNull();
    await eventually(async () => {
      const t = await svc.db('chain_transactions').where({ id: first.id }).first();
      if (t.status !== 'mined' || t.block_hash === first.block_hash) throw new Error('not included again yet');
    });
    expect((await f.details(id)).status).toBe('processing'); // not at depth yet
    await anvil().mine({ blocks: 3 });
    const done = await f.until(id, (x) => x.status === 'succeeded');
    const r = await receiptOf(done.info.txId);
    expect(r.status).toBe('success');
    expect(r.blockHash).not.toBe(first.block_hash);
    // The settlement is submitted after success and needs its own 3 blocks: keep mining until it is there.
    const settled = await eventually(async () => {
      await anvil().mine({ blocks: 1 });
      const d = await f.details(id);
      if (d.settlement === null) throw new Error('not settled yet');
      return d;
    }, 30_000);
    expect(await svc.db('chain_transactions').where({ payment_id: id, purpose: 'settle' })).toHaveLength(1);
    expect((await receiptOf(settled.settlement.successful.txId)).status).toBe('success');
    expect(await svc.db('payment_events').where({ payment_id: id, type: 'payment.settled' })).toHaveLength(1);
  });
});
