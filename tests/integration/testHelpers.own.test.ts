import { parseAbi, type Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { anvil, balanceOf, chainClient, newBuyer, receiptOf, rpcUrl, USDC_TOKEN } from '../support/chain';
import { eventually, flow, useChainSuite, type Shop } from '../support/chainSuite';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, newAccount, newKey, startTestService, type TestService } from '../support/service';
import { startReceiver, type Receiver } from '../support/webhookReceiver';
import { signedBody, x402PayTo } from '../support/x402';

// The test helpers (docs/testmode.md, "Test helpers") through HTTP: each makes its event happen on the file's own
// development chain (reorgs and stalls change the chain for everyone), and the payment, its long-polls, its events
// and webhooks, what is stored and the chain show what the service's real code paths make of it.

useChainSuite();

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };

describe('test helpers (own chain, DEVNET_CONFIRMATIONS=2, CHAIN_STUCK_AFTER_MS=1500)', () => {
  let svc: TestService;
  let rx: Receiver;
  beforeAll(async () => {
    svc = await startTestService({ DEVNET_CONFIRMATIONS: '2', CHAIN_STUCK_AFTER_MS: '1500' });
    rx = await startReceiver();
  });
  afterAll(async () => {
    await rx?.close();
    await svc?.close();
  });

  /** A merchant with a webhook endpoint, its preview clients and the payment flow. */
  async function shop() {
    const m: Shop = await merchantWithSettlement(svc, 'Helper Shop', 'test');
    const helpers = client(svc.url, { 'Api-Key': m.apiKey, ...PREVIEW });
    const hook = await helpers('POST', '/v1/webhook-endpoints', {
      body: { url: rx.url, enabledEvents: ['payment.processing', 'payment.succeeded', 'payment.expired', 'payment.settled'] },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    if (hook.status !== 201) throw new Error(hook.text);
    const gw = client(svc.url, { 'Api-Key': (await newKey(m.accountId, 'wallet', undefined, 'test')).apiKey });
    return { m, helpers, f: flow(svc.url, m, gw) };
  }
  const hooks = (paymentId: string, type?: string) =>
    rx.received.filter((r) => r.body?.data?.payment?.paymentId === paymentId && (!type || r.body.type === type));
  const events = (paymentId: string, type: string) => svc.db('payment_events').where({ payment_id: paymentId, type });
  const collectTx = (paymentId: string) => svc.db('chain_transactions').where({ payment_id: paymentId, purpose: 'collect' }).first();
  /** Blocks until `pred` holds for the payment: each pass mines one (DEVNET_CONFIRMATIONS=2 needs a block after the transaction's). */
  const mineUntil = (f: ReturnType<typeof flow>, id: string, pred: (d: any) => boolean) =>
    eventually(async () => {
      await anvil().mine({ blocks: 1 });
      const d = await f.details(id);
      if (!pred(d)) throw new Error(`payment ${id}: ${JSON.stringify({ status: d.status, settlement: d.settlement })}`);
      return d;
    }, 30_000);

  it('reorg: the block holding the collect is dropped; the same transaction is mined again and the payment succeeds once', async () => {
    const { helpers, f } = await shop();
    const buyer = await newBuyer(10_000_000n);
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).body.status).toBe('processing');
    const first = await eventually(async () => {
      const t = await collectTx(id);
      if (t?.status !== 'mined') throw new Error('not mined yet');
      return t;
    });
    const r = await helpers('POST', `/v1/test-helpers/payments/${id}/reorg`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ paymentId: id, status: 'processing', info: null });
    // The monitor finds the block gone and broadcasts the stored transaction again: mined in another block.
    const again = await eventually(async () => {
      const t = await collectTx(id);
      if (t.status !== 'mined' || t.block_hash === first.block_hash) throw new Error('not included again yet');
      return t;
    });
    expect(again.tx_hash).toBe(first.tx_hash);
    expect((await receiptOf(first.tx_hash)).blockHash).toBe(again.block_hash);
    expect((await chainClient().getBlock({ blockNumber: BigInt(first.block_number) })).hash).not.toBe(first.block_hash);
    const poll = await f.details(id);
    expect(poll.status).toBe('processing'); // one block deep of the two needed
    expect(await events(id, 'payment.succeeded')).toHaveLength(0);
    const done = await mineUntil(f, id, (d) => d.status === 'succeeded');
    expect(done.info.txId).toBe(first.tx_hash);
    expect((await receiptOf(done.info.txId)).status).toBe('success');
    await rx.until(() => hooks(id, 'payment.succeeded').length > 0);
    expect(await events(id, 'payment.succeeded')).toHaveLength(1);
    expect(hooks(id, 'payment.succeeded')[0].body.data.payment.txId).toBe(first.tx_hash);
  });

  it('reorg of an x402 settlement: the same transaction mined again, answered once it is deep enough, paid once', async () => {
    const { m } = await shop();
    const x402 = client(svc.url, { 'Api-Key': m.apiKey });
    const helpers = client(svc.url, { 'Api-Key': m.apiKey, ...PREVIEW });
    const buyer = await newBuyer(10_000n);
    const terms = { payTo: (await x402PayTo(x402))!, amount: '10000', extra: { name: 'USD Coin', version: '2', merchantId: m.merchantId } };
    const pending = await x402('POST', '/x402/settle?maxPollMs=0', { body: await signedBody(buyer, terms) });
    expect(pending.body).toMatchObject({ success: false, errorReason: 'settlement_pending' });
    const id = pending.body.paymentId;
    const answer = async () => (await x402('GET', `/x402/settlements/${id}?maxPollMs=0`)).body;
    const first = await eventually(async () => {
      const t = await collectTx(id);
      if (t?.status !== 'mined') throw new Error('not mined yet');
      return t;
    });
    expect((await helpers('POST', `/v1/test-helpers/payments/${id}/reorg`)).status).toBe(200);
    await eventually(async () => {
      const t = await collectTx(id);
      if (t.status !== 'mined' || t.block_hash === first.block_hash) throw new Error('not included again yet');
    });
    expect(await answer()).toMatchObject({ success: false, errorReason: 'settlement_pending' }); // one block deep of two
    const done = await eventually(async () => {
      await anvil().mine({ blocks: 1 });
      const a = await answer();
      if (!a.success) throw new Error(JSON.stringify(a));
      return a;
    }, 30_000);
    expect(done).toMatchObject({ transaction: first.tx_hash, paymentId: id });
    expect(await events(id, 'payment.succeeded')).toHaveLength(1);
    expect(await balanceOf(buyer.address)).toBe(0n);
  });

  it('reorg of a payment without a mined transaction: 409 invalid_state, nothing changes', async () => {
    const { helpers, f } = await shop();
    const id = await f.pay('1000');
    const height = await chainClient().getBlockNumber();
    const r = await helpers('POST', `/v1/test-helpers/payments/${id}/reorg`);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('invalid_state');
    expect(await chainClient().getBlockNumber()).toBe(height);
    expect((await f.details(id)).status).toBe('requires_action');
  });

  it('stall: the next transaction offers half the base fee, is replaced at its nonce once stuck, and the replacement pays', async () => {
    const { helpers, f } = await shop();
    const buyer = await newBuyer(10_000_000n);
    const id = await f.pay('1000');
    const s = await helpers('POST', `/v1/test-helpers/payments/${id}/stall`);
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({ paymentId: id, status: 'requires_action' });
    expect(await svc.db('test_helper_stalls').where({ payment_id: id })).toHaveLength(1);
    const { opt, td } = await f.option(id, buyer);
    expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).body.status).toBe('processing');
    const first = await eventually(async () => {
      const t = await collectTx(id);
      if (!t) throw new Error('not signed yet');
      return t;
    });
    const baseFee = (await chainClient().getBlock()).baseFeePerGas!;
    expect(BigInt(first.max_fee_per_gas)).toBeLessThan(baseFee);
    expect(await svc.db('test_helper_stalls').where({ payment_id: id })).toHaveLength(0); // taken with the transaction
    expect(await receiptOf(first.tx_hash).catch(() => null)).toBeNull();
    const replaced = await eventually(async () => {
      const t = await svc.db('chain_transactions').where({ id: first.id }).first();
      if (!t.previous_hashes.length || t.status !== 'mined') throw new Error('not replaced and mined yet');
      return t;
    });
    expect(replaced.nonce).toBe(first.nonce);
    expect(replaced.previous_hashes).toEqual([first.tx_hash]);
    expect(replaced.fee_bumps).toBe(1);
    expect(BigInt(replaced.max_fee_per_gas)).toBeGreaterThanOrEqual(baseFee);
    expect((await f.details(id)).status).toBe('processing');
    const done = await mineUntil(f, id, (d) => d.status === 'succeeded');
    expect(done.info.txId).toBe(replaced.tx_hash);
    expect(done.info.txId).not.toBe(first.tx_hash);
    expect(await receiptOf(first.tx_hash).catch(() => null)).toBeNull();
    expect((await receiptOf(done.info.txId)).status).toBe('success');
    // Only the next transaction stalls: the settlement goes out at the network's fees.
    const settled = await mineUntil(f, id, (d) => d.settlement?.successful !== undefined);
    expect((await receiptOf(settled.settlement.successful.txId)).status).toBe('success');
    expect((await svc.db('chain_transactions').where({ payment_id: id, purpose: 'settle' }).first()).fee_bumps).toBe(0);
    await rx.until(() => hooks(id, 'payment.succeeded').length > 0 && hooks(id, 'payment.processing').length > 0);
    expect(hooks(id, 'payment.succeeded')[0].body.data.payment.txId).toBe(replaced.tx_hash);
  });

  it('expire: an open payment expires now: the waiting long-poll answers, payment.expired is written and delivered once', async () => {
    const { m, helpers, f } = await shop();
    const id = await f.pay('1000');
    const started = Date.now();
    const waiting = m.asMerchant('GET', `/v1/payments/${id}/status?maxPollMs=20000`);
    await new Promise((r) => setTimeout(r, 300)); // the long-poll is waiting
    const r = await helpers('POST', `/v1/test-helpers/payments/${id}/expire`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ paymentId: id, status: 'expired' });
    const polled = await waiting;
    expect(polled.body).toMatchObject({ status: 'expired', isFinal: true });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await events(id, 'payment.expired')).toHaveLength(1);
    await rx.until(() => hooks(id, 'payment.expired').length > 0);
    expect(hooks(id, 'payment.expired')[0].body.data.payment.status).toBe('expired');
    const again = await helpers('POST', `/v1/test-helpers/payments/${id}/expire`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_state');
    expect(await events(id, 'payment.expired')).toHaveLength(1);
  });

  it('blacklist: every token refuses the buyer; a confirm is 422 token_refused and the payment stays payable', async () => {
    const { helpers, f } = await shop();
    const buyer = await newBuyer(10_000_000n);
    const r = await helpers('POST', '/v1/test-helpers/blacklist', { body: { account: `eip155:31337:${buyer.address.toLowerCase()}` } });
    expect(r.status).toBe(200);
    expect(r.body.account).toBe(`eip155:31337:${buyer.address}`);
    expect(r.body.blacklisted.map((b: any) => b.asset.split('/')[1].split(':')[0])).toEqual(['erc20', 'erc20', 'erc20']);
    for (const b of r.body.blacklisted) expect((await receiptOf(b.txHash)).status).toBe('success');
    const abi = parseAbi(['function isBlacklisted(address) view returns (bool)']);
    expect(await chainClient().readContract({ address: USDC_TOKEN, abi, functionName: 'isBlacklisted', args: [buyer.address] })).toBe(true);
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    const c = await f.confirm(id, opt.id, await buyer.signTypedData(td));
    expect(c.status).toBe(422);
    expect(c.body.code).toBe('token_refused');
    expect((await f.details(id)).status).toBe('requires_action');
    expect(await balanceOf(buyer.address)).toBe(10_000_000n);
    expect(await svc.db('chain_transactions').where({ payment_id: id })).toHaveLength(0);
  });

  it('blacklist while a stalled collect waits: its replacement reverts on chain, charged to the token, the payment stays processing', async () => {
    const { helpers, f } = await shop();
    const buyer = await newBuyer(10_000_000n);
    const id = await f.pay('1000');
    expect((await helpers('POST', `/v1/test-helpers/payments/${id}/stall`)).status).toBe(200);
    const { opt, td } = await f.option(id, buyer);
    expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).body.status).toBe('processing');
    const first = await eventually(async () => (await collectTx(id)) ?? Promise.reject(new Error('not signed yet')));
    const b = await helpers('POST', '/v1/test-helpers/blacklist', { body: { account: `eip155:31337:${buyer.address}` } });
    expect(b.status).toBe(200);
    // Replaced once stuck, mined, and refused by the token: the revert path decides at depth.
    const reverted = await eventually(async () => {
      await anvil().mine({ blocks: 1 });
      const t = await svc.db('chain_transactions').where({ id: first.id }).first();
      if (t.status !== 'reverted') throw new Error(`collect ${t.status}`);
      return t;
    }, 30_000);
    expect(reverted.revert_cause).toBe('token'); // not the buyer's revert budget
    expect(reverted.previous_hashes).toEqual([first.tx_hash]);
    expect((await receiptOf(reverted.tx_hash)).status).toBe('reverted');
    const d = await f.details(id);
    expect(d.status).toBe('processing'); // the authorization is unused and valid: simulated again until validBefore
    expect(await balanceOf(buyer.address)).toBe(10_000_000n);
    expect(await events(id, 'payment.failed')).toHaveLength(0);
  });

  it('who may use them: 404 for a live key, an unknown or foreign payment, a chain that is not a development chain, or the stable version', async () => {
    const { m, helpers, f } = await shop();
    const id = await f.pay('1000');
    // The same account's live key: the helpers are not there for it, whatever the subject.
    const live = client(svc.url, { 'Api-Key': (await newKey(m.accountId, 'partner')).apiKey, ...PREVIEW });
    for (const r of [
      await live('POST', `/v1/test-helpers/payments/${id}/expire`),
      await live('POST', '/v1/test-helpers/blacklist', { body: { account: `eip155:31337:${newBuyerAddress()}` } }),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('not_found');
    }
    const otherAccount = await newAccount('Other');
    const other = client(svc.url, { 'Api-Key': (await newKey(otherAccount.accountId, 'partner', undefined, 'test')).apiKey, ...PREVIEW });
    for (const r of [
      await other('POST', `/v1/test-helpers/payments/${id}/expire`),
      await helpers('POST', '/v1/test-helpers/payments/pay_01JKX8R4D6F8H0K2M4P6R8T0VW/stall'),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('payment_not_found');
    }
    const elsewhere = await helpers('POST', '/v1/test-helpers/blacklist', { body: { account: `eip155:8453:${newBuyerAddress()}` } });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.code).toBe('not_found');
    const malformed = await helpers('POST', '/v1/test-helpers/blacklist', { body: { account: 'eip155:31337:0x1234' } });
    expect(malformed.status).toBe(422);
    expect(malformed.body.code).toBe('invalid_account');
    const stable = await client(svc.url, { 'Api-Key': m.apiKey })('POST', `/v1/test-helpers/payments/${id}/expire`);
    expect(stable.status).toBe(404);
    expect((await f.details(id)).status).toBe('requires_action');
    // The same chain configured as a real one (CHAINS): no development chain, so the helpers are not there.
    const real = await startTestService({
      CHAINS: '31337',
      CHAIN_31337_RPC_URL: rpcUrl(),
      CHAIN_31337_RELAYER_KEYS: generatePrivateKey(),
      CHAIN_31337_MAX_FEE_PER_GAS_WEI: '100000000000',
      TEST_MODE: 'off',
    });
    try {
      const onReal = client(real.url, { 'Api-Key': m.apiKey, ...PREVIEW });
      const r = await onReal('POST', `/v1/test-helpers/payments/${id}/expire`);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('not_found');
      const b = await onReal('POST', '/v1/test-helpers/blacklist', { body: { account: `eip155:31337:${newBuyerAddress()}` } });
      expect(b.status).toBe(404);
      expect(b.body.code).toBe('not_found');
    } finally {
      await real.close();
    }
    expect((await f.details(id)).status).toBe('requires_action');
  });
});

const newBuyerAddress = () => `0x${generatePrivateKey().slice(26)}` as Hex;
