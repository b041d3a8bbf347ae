import { createWalletClient, getAddress, http, parseGwei, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { devnetChain } from '../../src/chain/devnet';
import { authorizationCall } from '../../src/chain/evm';
import { createDb } from '../../src/db/knex';
import { anvil, balanceOf, chainClient, newBuyer, useOwnChain } from '../support/chain';
import { eventually } from '../support/eventually';
import { adminOn, newKey } from '../support/service';
import { figures, ownStack, partner, send } from './kit';

// Direct mode (issue 28, finding 5): the buyer's TransferWithAuthorization pays the merchant's destination, and
// anyone holding the signature may submit it. A copy sent with a higher fee is mined first; the relayer's own
// transaction then reverts (authorization used). The merchant was paid with exactly this payment's terms (the
// signature binds them), so the payment succeeds with the copy's transaction instead of failing.

jest.setTimeout(120_000);
useOwnChain();

type Stack = Awaited<ReturnType<typeof ownStack>>;
const opened: { stack: Stack; db: ReturnType<typeof createDb> }[] = [];
/** Each describe's own: the file's chain (useOwnChain) stops after the top-level hooks' turn. */
async function closeOpened() {
  await anvil().setAutomine(true);
  for (const { stack, db } of opened.splice(0)) {
    await db.destroy();
    await stack.close();
  }
}

/**
 * A direct-mode shop on a stack of its own, a USD 50.00 payment its buyer signed and confirmed with automine off (the
 * relayer's transaction broadcast, not mined), and a funded copier holding the signature.
 */
async function confirmedDirect(name: string, env: Record<string, string> = {}) {
  const stack = await ownStack(`paygate_faults_${name}`, env);
  const db = createDb(stack.dbUrl, 2);
  opened.push({ stack, db });
  const url = (await stack.start()).url;
  const shop = await partner(url, stack.dbUrl, `Direct ${name}`);
  await adminOn(stack.dbUrl, 'accounts', 'set-mode', '--account', shop.accountId, '--mode', 'direct');
  const wallet = { 'Api-Key': (await newKey(shop.accountId, 'wallet', stack.dbUrl)).apiKey };
  const destination = getAddress(
    (await db('crypto_settlements').where({ merchant_id: shop.merchantId }).first()).destination.split(':')[2],
  );
  const buyer = await newBuyer(50_000_000n);
  const copier = privateKeyToAccount(generatePrivateKey());
  await anvil().setBalance({ address: copier.address, value: 10n ** 18n });
  const destinationBefore = await balanceOf(destination);
  const id = (await send(url, 'POST', '/v1/payments', shop.headers, { referenceId: name, amount: { unit: 'iso4217/USD', value: '5000' } }))
    .body.paymentId as string;
  const opt = (await send(url, 'POST', `/v1/gateway/payment/${id}/options`, wallet, { accounts: [`eip155:31337:${buyer.address}`] })).body
    .options[0];
  const td = JSON.parse(opt.actions[0].data.params[1]);
  expect(td.primaryType).toBe('TransferWithAuthorization');
  const sig = (await buyer.signTypedData(td)) as Hex;
  await anvil().setAutomine(false);
  const c = await send(url, 'POST', `/v1/gateway/payment/${id}/confirm`, wallet, {
    optionId: opt.id,
    results: [{ type: 'walletRpc', data: [sig] }],
  });
  expect([c.status, c.body.status]).toEqual([200, 'processing']);
  await eventually(
    () => db('chain_transactions').where({ payment_id: id }).whereNotNull('broadcast_at'),
    (t) => t.length === 1,
    20_000,
  );
  return { db, url, shop, destination, destinationBefore, buyer, copier, id, td, sig };
}

/** The copy, with the same signed terms and a higher priority fee: first in the next block. */
const sendCopy = (copier: PrivateKeyAccount, td: any, sig: Hex) =>
  createWalletClient({
    chain: devnetChain(process.env.DEVNET_RPC_URL!),
    transport: http(process.env.DEVNET_RPC_URL!),
    account: copier,
  }).sendTransaction({
    ...authorizationCall(td, sig),
    gas: 200_000n,
    maxFeePerGas: parseGwei('500'),
    maxPriorityFeePerGas: parseGwei('100'),
  });

/** Paid once, by the copy: the buyer charged once, the merchant paid, no failure, the payment succeeded with it. */
async function paidByCopy(p: Awaited<ReturnType<typeof confirmedDirect>>, copy: Hex) {
  expect(await balanceOf(p.buyer.address)).toBe(0n);
  expect((await balanceOf(p.destination)) - p.destinationBefore).toBe(50_000_000n);
  expect(await p.db('payment_events').where({ payment_id: p.id, type: 'payment.failed' })).toEqual([]);
  const g = await send(p.url, 'GET', `/v1/payments/${p.id}`, p.shop.headers);
  expect([g.status, g.body.status, g.body.info?.txId]).toEqual([200, 'succeeded', copy]);
}

describe('direct mode: the authorization submitted by someone else first', () => {
  afterAll(closeOpened);
  it('succeeds with the transaction that used the authorization; the buyer is charged once, nothing fails', async () => {
    const p = await confirmedDirect('outbid');
    const copy = await sendCopy(p.copier, p.td, p.sig);
    await anvil().mine({ blocks: 1 });
    await anvil().setAutomine(true);
    await anvil().mine({ blocks: 1 });

    const done = await eventually(
      () => p.db('payments').where({ id: p.id }).first(),
      (x) => x.status !== 'processing',
      30_000,
    );
    const ours = await p.db('chain_transactions').where({ payment_id: p.id }).select('status', 'revert_cause');
    figures('direct-outbid', { final: done.status, relayerTransactions: ours.map((t) => t.status) });
    expect(done).toMatchObject({ status: 'succeeded', tx_hash: copy, failure_code: null });
    // Outbid by a copy that paid the payment: not the payer's revert, so not in its budget.
    expect(ours.map((t) => [t.status, t.revert_cause])).toEqual([['reverted', 'outbid']]);
    await paidByCopy(p, copy);
  });
});

// The same copy while the relayer's own transaction is stuck below the network's fees (issue 44): past validBefore
// the relayer takes its nonce back, and the token, asked for why, says "expired" before it would say "used". The
// payment follows the token's record of the authorization (used by the copy, in time), not the expiry.
describe('direct mode: a copy mined while the relayer is stuck, then its nonce taken back past validBefore', () => {
  afterAll(closeOpened);
  it('succeeds with the copy: the cancellation does not fail a payment whose authorization paid', async () => {
    const p = await confirmedDirect('outbid_stuck', {
      CHAIN_STUCK_AFTER_MS: '1000',
      CHAIN_MAX_FEE_BUMPS: '0',
      DEVNET_MAX_FEE_PER_GAS_WEI: String(parseGwei('20')),
    });
    const txOf = () => p.db('chain_transactions').where({ payment_id: p.id, purpose: 'direct' }).first();
    // The network now asks more than the relayer's ceiling: its transaction stays in the pool.
    const baseFee = async (gwei: string) => {
      await anvil().setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei(gwei) });
      await anvil().mine({ blocks: 1 });
    };
    await baseFee('50');
    const copy = await sendCopy(p.copier, p.td, p.sig);
    await baseFee('50'); // the copy, in time
    expect((await chainClient().getTransactionReceipt({ hash: copy })).status).toBe('success');
    // Past validBefore: the relayer takes the nonce back (or, as a node may, mines the stuck call, reverted).
    await anvil().setNextBlockTimestamp({ timestamp: BigInt(p.td.message.validBefore) + 10n });
    await baseFee('50');
    await eventually(txOf, (t) => t.cancelled_at !== null && t.broadcast_at !== null, 20_000);
    await baseFee('1');
    const done = await eventually(
      async () => {
        await anvil().mine({ blocks: 1 });
        return p.db('payments').where({ id: p.id }).first();
      },
      (x) => x.status !== 'processing',
      30_000,
      500,
    );
    expect(done).toMatchObject({ status: 'succeeded', tx_hash: copy, failure_code: null });
    expect(['dropped', 'reverted']).toContain((await txOf()).status);
    await paidByCopy(p, copy);
  });
});
