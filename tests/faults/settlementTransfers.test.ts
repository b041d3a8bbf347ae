import { getAddress, parseAbiItem, type Address, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { createDb } from '../../src/db/knex';
import { anvil, balanceOf, chainClient, newBuyer, tokenAdmin, USDC_TOKEN, useOwnChain } from '../support/chain';
import { eventually } from '../support/eventually';
import { adminOn, newKey } from '../support/service';
import { startReceiver, type Receiver } from '../support/webhookReceiver';
import { figures, ownStack, partner, send } from './kit';

// Settlement transfers (collector mode). One that fails (issue 28, finding 2) is tried again, and after its
// bound held for an operator, never left unpaid in silence; what it sends follows the fee terms of the
// payment's confirm, not those of its settlement (finding 6). The token is paused for one block, the one that mines the
// settlement (the pause is sent with a higher priority fee, so it goes first in that block); then a merchant
// whose destination the token blacklists until an operator steps in. On a chain of this file's own: automine
// is turned off and on, and the token paused.

jest.setTimeout(150_000);
useOwnChain();

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

describe('settlement transfers that fail', () => {
  let stack: Awaited<ReturnType<typeof ownStack>>;
  let url: string;
  let db: ReturnType<typeof createDb>;
  let collector: Address;
  let rx: Receiver | undefined;

  beforeAll(async () => {
    stack = await ownStack('paygate_faults_settle', { SETTLEMENT_RETRY_BASE_MS: '500', SETTLEMENT_MAX_ATTEMPTS: '3' });
    db = createDb(stack.dbUrl, 2);
    url = (await stack.start()).url;
    collector = privateKeyToAddress(stack.env.DEVNET_RELAYER_KEYS as Hex);
  }, 60_000);
  afterAll(async () => {
    await anvil().setAutomine(true);
    await rx?.close();
    await db?.destroy();
    await stack?.close();
  });

  async function shop(name: string) {
    const s = await partner(url, stack.dbUrl, name);
    const wallet = { 'Api-Key': (await newKey(s.accountId, 'wallet', stack.dbUrl)).apiKey };
    const destination = getAddress((await db('crypto_settlements').where({ merchant_id: s.merchantId }).first()).destination.split(':')[2]);
    return { ...s, wallet, destination };
  }

  /**
   * A USD 50.00 payment confirmed by a new buyer: processing, its collect sent. `before` runs just before the
   * confirm (the buyer's funding must be mined first).
   */
  async function confirm(s: Awaited<ReturnType<typeof shop>>, ref: string, before?: () => Promise<unknown>) {
    const buyer = await newBuyer(50_000_000n);
    await before?.();
    const id = (await send(url, 'POST', '/v1/payments', s.headers, { referenceId: ref, amount: { unit: 'iso4217/USD', value: '5000' } }))
      .body.paymentId as string;
    const opt = (await send(url, 'POST', `/v1/gateway/payment/${id}/options`, s.wallet, { accounts: [`eip155:31337:${buyer.address}`] }))
      .body.options[0];
    const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
    const c = await send(url, 'POST', `/v1/gateway/payment/${id}/confirm`, s.wallet, {
      optionId: opt.id,
      results: [{ type: 'walletRpc', data: [sig] }],
    });
    expect([c.status, c.body.status]).toEqual([200, 'processing']);
    return id;
  }
  const sent = (id: string, purpose: string) =>
    db('chain_transactions').where({ payment_id: id, purpose }).whereNotNull('broadcast_at').orderBy('id').select('status', 'tx_hash');
  const paid = async (to: Address) =>
    chainClient().getLogs({ address: USDC_TOKEN, event: TRANSFER, args: { from: collector, to }, fromBlock: 0n });

  it('a settlement reverted by a one-block pause is sent again and settles once', async () => {
    const s = await shop('Paused Token');
    const id = await confirm(s, 'revert-once', () => anvil().setAutomine(false));
    await eventually(
      () => sent(id, 'collect'),
      (t) => t.length === 1,
      20_000,
    );
    await anvil().mine({ blocks: 1 }); // the collect: the payment succeeds, its settlement is sent
    await eventually(
      () => sent(id, 'settle'),
      (t) => t.length === 1,
      20_000,
    );
    await tokenAdmin('pause');
    await anvil().mine({ blocks: 1 }); // the pause, then the settlement: reverted
    await tokenAdmin('unpause');
    await anvil().mine({ blocks: 1 });
    await anvil().setAutomine(true);
    const settled = await eventually(
      () => db('payments').where({ id }).first(),
      (p) => p.settled_at !== null,
      30_000,
    );
    const settles = await db('chain_transactions').where({ payment_id: id, purpose: 'settle' }).orderBy('id').select('status', 'tx_hash');
    const transfers = await paid(s.destination);
    figures('settlement-revert-once', {
      settles: settles.map((t) => t.status),
      transfers: transfers.length,
      attempts: settled.settlement_attempts,
    });
    expect(settles.map((t) => t.status)).toEqual(['reverted', 'confirmed']);
    expect(transfers.map((t) => [t.transactionHash, t.args.value])).toEqual([[settles[1].tx_hash, 50_000_000n]]);
    expect(await balanceOf(s.destination)).toBe(50_000_000n);
    expect(settled).toMatchObject({ settlement_tx_hash: settles[1].tx_hash, settlement_attempts: 1, settlement_held_at: null });
    expect(await db('payment_events').where({ payment_id: id, type: 'payment.settled' })).toHaveLength(1);
    const r = await send(url, 'GET', `/v1/payments/${id}`, s.headers);
    expect([r.status, r.body.status]).toEqual([200, 'succeeded']);
  });

  it('a settlement that keeps failing is held with its reason, listed, and paid once an operator retries it', async () => {
    const s = await shop('Blacklisted Destination');
    const hooks = (rx = await startReceiver());
    const hook = await send(
      url,
      'POST',
      '/v1/webhook-endpoints',
      { ...s.headers, 'PAY-Version': '2026-02-19.preview', 'Idempotency-Key': 'held-hook' },
      { url: hooks.url, enabledEvents: ['payment.settlement_held', 'payment.settled'] },
    );
    expect(hook.status).toBe(201);
    const events = (id: string) => hooks.received.filter((r) => r.body.data.payment.paymentId === id).map((r) => r.body.type);
    await tokenAdmin('blacklist', s.destination);
    const id = await confirm(s, 'held');
    const held = await eventually(
      () => db('payments').where({ id }).first(),
      (p) => p.settlement_held_at !== null,
      30_000,
    );
    expect(held).toMatchObject({
      status: 'succeeded',
      settled_at: null,
      settlement_attempts: 3,
      settlement_hold_reason: 'simulation:token_refused',
    });
    expect(await sent(id, 'settle')).toEqual([]); // nothing was sent: each attempt was simulated first
    const list: unknown = await adminOn(stack.dbUrl, 'settlements', 'list', '--account', s.accountId);
    expect(list).toEqual([
      expect.objectContaining({
        paymentId: id,
        accountId: s.accountId,
        attempts: 3,
        reason: 'simulation:token_refused',
        tokenAmount: '50000000',
      }),
    ]);
    const metrics = await fetch(`${url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/^paygate_settlements_held 1$/m);
    // The endpoint is told, once: also an operator's hold of a settlement held already says nothing new.
    await hooks.until((all) => all.some((r) => r.body.type === 'payment.settlement_held'));
    expect(await adminOn(stack.dbUrl, 'settlements', 'hold', '--payment', id)).toEqual({ paymentId: id, held: true });

    // Still held while the cause is gone: an operator decides.
    await tokenAdmin('unBlacklist', s.destination);
    await new Promise((r) => setTimeout(r, 2000));
    expect((await db('payments').where({ id }).first()).settled_at).toBeNull();
    expect(await adminOn(stack.dbUrl, 'settlements', 'retry', '--payment', id)).toEqual({ paymentId: id, retried: true });
    const settled = await eventually(
      () => db('payments').where({ id }).first(),
      (p) => p.settled_at !== null,
      30_000,
    );
    expect(settled).toMatchObject({ settlement_held_at: null, settlement_hold_reason: null });
    expect((await paid(s.destination)).map((t) => t.args.value)).toEqual([50_000_000n]);
    await hooks.until((all) => all.some((r) => r.body.type === 'payment.settled'));
    expect(events(id)).toEqual(['payment.settlement_held', 'payment.settled']);
    expect(await adminOn(stack.dbUrl, 'settlements', 'list', '--account', s.accountId)).toEqual([]);
  });

  it('an operator can hold a settlement before it is sent; a settled payment cannot be held or retried', async () => {
    const s = await shop('Operator Hold');
    const id = await confirm(s, 'operator-hold', () => anvil().setAutomine(false));
    await eventually(
      () => sent(id, 'collect'),
      (t) => t.length === 1,
      20_000,
    );
    // Held while the payment is still processing: nothing to hold yet.
    await expect(adminOn(stack.dbUrl, 'settlements', 'hold', '--payment', id)).rejects.toThrow(/no unsettled succeeded payment/);
    await anvil().setAutomine(true);
    await anvil().mine({ blocks: 1 });
    const done = await eventually(
      () => db('payments').where({ id }).first(),
      (p) => p.settled_at !== null,
      30_000,
    );
    expect(done.settled_at).not.toBeNull();
    await expect(adminOn(stack.dbUrl, 'settlements', 'hold', '--payment', id)).rejects.toThrow(/no unsettled succeeded payment/);
    await expect(adminOn(stack.dbUrl, 'settlements', 'retry', '--payment', id)).rejects.toThrow(/no unsettled succeeded payment/);
  });

  it('sends what the fee terms at confirm say, whatever the account fee is by the time it settles', async () => {
    const s = await shop('Fee Change');
    await adminOn(stack.dbUrl, 'accounts', 'set-fee', '--account', s.accountId, '--base-minor', '0', '--percent', '1');
    const id = await confirm(s, 'fee-terms', () => anvil().setAutomine(false));
    await eventually(
      () => sent(id, 'collect'),
      (t) => t.length === 1,
      20_000,
    );
    await adminOn(stack.dbUrl, 'accounts', 'set-fee', '--account', s.accountId, '--base-minor', '100', '--percent', '50');
    await anvil().setAutomine(true);
    await anvil().mine({ blocks: 1 });
    const settled = await eventually(
      () => db('payments').where({ id }).first(),
      (p) => p.settled_at !== null,
      30_000,
    );
    expect(settled).toMatchObject({ fee_bps: 100, settlement_amount: '49500000', fee_amount: '500000' });
    expect((await paid(s.destination)).map((t) => t.args.value)).toEqual([49_500_000n]);
    const r = await send(url, 'GET', `/v1/payments/${id}`, s.headers);
    expect([r.status, r.body.status]).toEqual([200, 'succeeded']);
  });
});
