import { createWalletClient, http, parseAbiItem, parseEther, parseGwei, type Address, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { devnetChain } from '../../src/chain/devnet';
import { TOKEN_ABI } from '../../src/chain/evm';
import { createDb } from '../../src/db/knex';
import { anvil, balanceOf, chainClient, newBuyer, newWallet, rpcUrl, tokenAdmin, USDC_TOKEN, useOwnChain } from '../support/chain';
import { eventually } from '../support/eventually';
import { newKey } from '../support/service';
import { figures, ownStack, partner, send } from './kit';

// A collect that reverts is not the end of a payment (issue 28, seen in the soak): a token paused for the one block
// that mines a collect made it revert, and the payment failed transaction_reverted although the buyer's authorization
// was still unused and valid. Now the chain is asked whether it is, and the payment is submitted again (under a new
// nonce, after a backoff) up to SUBMIT_MAX_ATTEMPTS; a simulation that refuses for good fails it with that code. The
// pause is sent with a higher priority fee than the collect, so it goes first in their block. On a chain of this
// file's own: automine is turned off and on, and the token paused.

jest.setTimeout(150_000);
useOwnChain();

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

describe('a collect that reverts', () => {
  let stack: Awaited<ReturnType<typeof ownStack>>;
  let url: string;
  let db: ReturnType<typeof createDb>;
  let collector: Address;
  let shop: Awaited<ReturnType<typeof partner>>;
  let wallet: Record<string, string>;

  beforeAll(async () => {
    stack = await ownStack('paygate_faults_collect_revert', {
      SUBMIT_RETRY_BASE_MS: '500',
      SUBMIT_MAX_ATTEMPTS: '2',
      REVERT_BUDGET_PER_BUYER: '2',
      REVERT_BUDGET_PER_CREDENTIAL: '2',
    });
    db = createDb(stack.dbUrl, 2);
    url = (await stack.start()).url;
    collector = privateKeyToAddress(stack.env.DEVNET_RELAYER_KEYS as Hex);
    shop = await partner(url, stack.dbUrl, 'Reverted Collect Shop');
    wallet = { 'Api-Key': (await newKey(shop.accountId, 'wallet', stack.dbUrl)).apiKey };
  }, 60_000);
  afterAll(async () => {
    await anvil().setAutomine(true);
    await tokenAdmin('unpause').catch(() => undefined);
    await db?.destroy();
    await stack?.close();
  });

  /** A payment of `value` (USD minor units) confirmed by `buyer`: the confirm's answer, and the payment. */
  async function confirm(buyer: Awaited<ReturnType<typeof newBuyer>>, ref: string, value = '5000') {
    const id = (await send(url, 'POST', '/v1/payments', shop.headers, { referenceId: ref, amount: { unit: 'iso4217/USD', value } })).body
      .paymentId as string;
    const opt = (await send(url, 'POST', `/v1/gateway/payment/${id}/options`, wallet, { accounts: [`eip155:31337:${buyer.address}`] })).body
      .options[0];
    const c = await send(url, 'POST', `/v1/gateway/payment/${id}/confirm`, wallet, {
      optionId: opt.id,
      results: [{ type: 'walletRpc', data: [await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]))] }],
    });
    return { id, c };
  }
  /** A USD 50.00 payment confirmed by a new buyer with automine off: processing, its collect broadcast, not mined. */
  async function confirmed(ref: string) {
    const buyer = await newBuyer(50_000_000n);
    await anvil().setAutomine(false);
    const { id, c } = await confirm(buyer, ref);
    expect([c.status, c.body.status]).toEqual([200, 'processing']);
    await collects(id, (t) => t.length === 1 && t[0].broadcast_at !== null);
    return { id, buyer };
  }
  const collectRows = (id: string) =>
    db('chain_transactions')
      .where({ payment_id: id, purpose: 'collect' })
      .orderBy('id')
      .select('status', 'tx_hash', 'nonce', 'broadcast_at');
  const collects = (id: string, until: (t: Awaited<ReturnType<typeof collectRows>>) => boolean) =>
    eventually(() => collectRows(id), until, 20_000);
  /** The token paused in the block that mines the pending collect: it reverts. The token stays paused. */
  async function revertInPause() {
    await tokenAdmin('pause');
    await anvil().mine({ blocks: 1 });
  }
  const final = (id: string) =>
    eventually(
      () => db('payments').where({ id }).first(),
      (p) => p.status !== 'processing',
      40_000,
    );
  const pulled = (buyer: Address) => chainClient().getLogs({ address: USDC_TOKEN, event: TRANSFER, args: { from: buyer }, fromBlock: 0n });
  /** The relayer's nonces as stored: each used once, none skipped, up to the chain's count. */
  async function expectContiguousNonces() {
    const nonces = (await db('chain_transactions').where({ sender: collector }).orderBy('nonce').select('nonce')).map((r) =>
      Number(r.nonce),
    );
    const count = await chainClient().getTransactionCount({ address: collector });
    expect(nonces).toEqual(Array.from({ length: count }, (_, i) => i));
  }

  it('reverted once by a one-block pause, is submitted again and pays once', async () => {
    const { id, buyer } = await confirmed('revert-once');
    await revertInPause();
    await tokenAdmin('unpause');
    await anvil().mine({ blocks: 1 });
    await anvil().setAutomine(true);
    const done = await final(id);
    const rows = await collectRows(id);
    const transfers = await pulled(buyer.address);
    figures('collect-revert-once', { collects: rows.map((r) => r.status), transfers: transfers.length, status: done.status });
    expect({ status: done.status, failureCode: done.failure_code }).toEqual({ status: 'succeeded', failureCode: null });
    expect(rows.map((r) => r.status)).toEqual(['reverted', 'confirmed']);
    expect((await chainClient().getTransactionReceipt({ hash: rows[0].tx_hash })).status).toBe('reverted');
    expect(Number(rows[1].nonce)).toBe(Number(rows[0].nonce) + 1);
    expect(transfers.map((t) => [t.transactionHash, t.args.to, t.args.value])).toEqual([[rows[1].tx_hash, collector, 50_000_000n]]);
    expect(done.tx_hash).toBe(rows[1].tx_hash);
    expect(await balanceOf(buyer.address)).toBe(0n);
    const r = await send(url, 'GET', `/v1/payments/${id}`, shop.headers);
    expect([r.status, r.body.status]).toEqual([200, 'succeeded']);
    await eventually(
      () => db('payments').where({ id }).first(),
      (p) => p.settled_at !== null,
      30_000,
    );
    await expectContiguousNonces();
  });

  it('reverted, then the buyer moves the funds away: fails insufficient_funds, nothing pulled', async () => {
    const { id, buyer } = await confirmed('revert-then-funds-gone');
    await revertInPause();
    // Final while the token is still paused: the payment waits for the token, it does not fail.
    await collects(id, (t) => t[0].status === 'reverted');
    expect((await db('payments').where({ id }).first()).status).toBe('processing');
    // The token unpaused and the buyer's funds moved away in one block: the next simulation finds them gone.
    await anvil().setBalance({ address: buyer.address, value: parseEther('1') });
    await tokenAdmin('unpause');
    const elsewhere = newWallet();
    const buyerWallet = createWalletClient({ chain: devnetChain(rpcUrl()), transport: http(rpcUrl()), account: buyer });
    await buyerWallet.writeContract({
      address: USDC_TOKEN,
      abi: TOKEN_ABI,
      functionName: 'transfer',
      args: [elsewhere, 50_000_000n],
      gas: 100_000n,
      maxFeePerGas: parseGwei('500'),
      maxPriorityFeePerGas: parseGwei('50'),
    } as never);
    await anvil().mine({ blocks: 1 });
    await anvil().setAutomine(true);
    const done = await final(id);
    const r = await send(url, 'GET', `/v1/payments/${id}`, shop.headers);
    figures('collect-revert-funds-gone', { status: done.status, failureCode: done.failure_code });
    expect({ status: done.status, failureCode: done.failure_code }).toEqual({ status: 'failed', failureCode: 'insufficient_funds' });
    expect([r.status, r.body.status]).toEqual([200, 'failed']);
    expect((await collectRows(id)).map((t) => t.status)).toEqual(['reverted']);
    expect((await pulled(buyer.address)).map((t) => t.args.to)).toEqual([elsewhere]);
    expect(await balanceOf(elsewhere)).toBe(50_000_000n);
    await expectContiguousNonces();
  });

  it('reverted SUBMIT_MAX_ATTEMPTS times by a pause: fails transaction_reverted; the buyer and credential may still pay', async () => {
    const { id, buyer } = await confirmed('revert-every-time');
    await revertInPause();
    await collects(id, (t) => t[0].status === 'reverted');
    await tokenAdmin('unpause');
    await anvil().mine({ blocks: 1 });
    await collects(id, (t) => t.length === 2 && t[1].broadcast_at !== null); // simulated again, sent again
    await revertInPause();
    await tokenAdmin('unpause');
    await anvil().mine({ blocks: 1 });
    await anvil().setAutomine(true);
    const done = await final(id);
    expect({ status: done.status, failureCode: done.failure_code }).toEqual({ status: 'failed', failureCode: 'transaction_reverted' });
    expect((await collectRows(id)).map((t) => t.status)).toEqual(['reverted', 'reverted']);
    expect(await pulled(buyer.address)).toEqual([]);
    expect(await balanceOf(buyer.address)).toBe(50_000_000n);
    await expectContiguousNonces();
    // The token caused both reverts (paused at their blocks): neither counts in the buyer's budget nor in the
    // credential's (2 each here). Before, both did, and the buyer's next confirm was refused 429 too_many_reverts.
    expect(await db('chain_transactions').where({ payment_id: id, purpose: 'collect' }).orderBy('id').pluck('revert_cause')).toEqual([
      'token',
      'token',
    ]);
    const next = await confirm(buyer, 'after-reverts', '100');
    expect([next.c.status, next.c.body.status]).toEqual([200, 'processing']);
    const paid = await final(next.id);
    expect({ status: paid.status, failureCode: paid.failure_code }).toEqual({ status: 'succeeded', failureCode: null });
    figures('collect-revert-budget', { causes: ['token', 'token'], nextConfirm: next.c.status });
  });
});
