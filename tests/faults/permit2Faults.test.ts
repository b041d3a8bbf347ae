import { getAddress, pad, parseAbiItem, parseGwei, type Address, type Hex } from 'viem';
import { privateKeyToAddress, type PrivateKeyAccount } from 'viem/accounts';
import { createDb } from '../../src/db/knex';
import { anvil, balanceOf, chainClient, DEVNET_USDC, fund, newWallet, useOwnChain } from '../support/chain';
import { eventually } from '../support/eventually';
import { newUsdtBuyer, sendAction, signOf, USDT } from '../support/permit2';
import { startRpcProxy } from '../support/rpcProxy';
import { adminOn } from '../support/service';
import type { ServiceProcess } from '../support/serviceProcess';
import { newSmartWallet } from '../support/smartWallet';
import { figures, ownStack, partner, send } from './kit';

// The relayer's guarantees for Permit2's permitTransferFrom (issue 29), under the faults the EIP-3009 path is tested
// with (stuckFees, crash, receiptGap): a submission stuck while the network asks more is replaced with higher fees
// and paid once; a process killed (SIGKILL) after it sent a permit, whose transaction the node then lost, sends
// the stored transaction again after the restart and is paid once; a receipt the node hides is not taken for a lost
// transaction; and an ERC-6492 wallet's deployment that landed before a crash does not stand in the way of the
// transfer stored with it. The chain is this file's own (mining stops and fees rise under the test's hand); the service
// processes talk to it through an RPC proxy that can hide receipts.

useOwnChain();
jest.setTimeout(180_000);

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const AMOUNT = 20_000_000n; // USD 20.00 in USDT

describe('Permit2 submissions under faults', () => {
  let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
  let stack: Awaited<ReturnType<typeof ownStack>>;
  let svc: ServiceProcess;
  let db: ReturnType<typeof createDb>;
  let shop: Awaited<ReturnType<typeof partner>>;
  let wallet: Record<string, string>;
  let collector: Address;
  const usdtToken = getAddress(USDT.split(':').pop()!);

  beforeAll(async () => {
    proxy = await startRpcProxy(process.env.DEVNET_RPC_URL!);
    stack = await ownStack('paygate_faults_permit2', { DEVNET_RPC_URL: proxy.url, CHAIN_STUCK_AFTER_MS: '1000' });
    db = createDb(stack.dbUrl, 2);
    svc = await stack.start();
    shop = await partner(svc.url, stack.dbUrl, 'Permit2 Faults');
    const usdt = await send(
      svc.url,
      'POST',
      `/v1/merchants/${shop.merchantId}/settlements/crypto`,
      {
        'Api-Key': shop.apiKey,
        'Idempotency-Key': 'permit2-faults-usdt',
      },
      { settlements: [{ asset: USDT, destination: `eip155:31337:${newWallet()}` }] },
    );
    expect(usdt.status).toBe(201);
    wallet = { 'Api-Key': (await adminOn(stack.dbUrl, 'keys', 'create', '--account', shop.accountId, '--type', 'wallet')).apiKey };
    collector = privateKeyToAddress(stack.env.DEVNET_RELAYER_KEYS as Hex);
  }, 90_000);
  afterAll(async () => {
    await anvil()
      .setAutomine(true)
      .catch(() => undefined);
    await db?.destroy();
    await stack?.close();
    await proxy?.close();
  });

  /** A buyer holding exactly AMOUNT of USDT who approved Permit2 (while blocks are mined), and its signed permit. */
  async function signedPayment(ref: string) {
    const buyer = await newUsdtBuyer(AMOUNT);
    const pay = await send(svc.url, 'POST', '/v1/payments', shop.headers, {
      referenceId: ref,
      amount: { unit: 'iso4217/USD', value: '2000' },
    });
    const id = pay.body.paymentId as string;
    const opts = await send(svc.url, 'POST', `/v1/gateway/payment/${id}/options`, wallet, { accounts: [`eip155:31337:${buyer.address}`] });
    const opt = opts.body.options.find((o: any) => o.amount.unit === `caip19/${USDT}`);
    const approveTx = await sendAction(buyer, opt.actions[0].data.params[0]);
    const sig = await signOf(buyer, opt.actions[1]);
    return { id, buyer, confirm: () => confirm(id, opt.id, [approveTx, sig]) };
  }
  async function confirm(id: string, optionId: string, data: string[]) {
    const c = await send(svc.url, 'POST', `/v1/gateway/payment/${id}/confirm`, wallet, {
      optionId,
      results: [{ type: 'walletRpc', data }],
    });
    expect([c.status, c.body.status]).toEqual([200, 'processing']);
  }
  const collectOf = (id: string) => db('chain_transactions').where({ payment_id: id, purpose: 'collect' }).first();
  const paidFrom = async (buyer: PrivateKeyAccount) =>
    chainClient().getLogs({ address: usdtToken, event: TRANSFER, args: { from: buyer.address }, fromBlock: 0n });
  /** Mines a block per poll until the payment succeeded and settled. */
  const settled = (id: string) =>
    eventually(
      async () => {
        await anvil().mine({ blocks: 1 });
        return db('payments').where({ id }).first();
      },
      (p) => p.status !== 'processing' && (p.status !== 'succeeded' || p.settled_at !== null),
      60_000,
      300,
    );
  /** Paid exactly once: one transfer out of the buyer, to the collector, of the amount; the payment succeeded with it. */
  async function paidOnce(id: string, buyer: PrivateKeyAccount) {
    const done = await settled(id);
    const out = await paidFrom(buyer);
    expect(out.map((l) => [getAddress(l.args.to!), l.args.value])).toEqual([[collector, AMOUNT]]);
    expect([done.status, done.tx_hash]).toEqual(['succeeded', out[0].transactionHash]);
    expect(await balanceOf(buyer.address, 'USDT')).toBe(0n);
    expect(await db('payment_events').where({ payment_id: id, type: 'payment.failed' })).toEqual([]);
    return done;
  }

  it('a stuck permitTransferFrom is replaced with the fees the network asks, and pays once', async () => {
    const p = await signedPayment('p2-stuck');
    await anvil().setAutomine(false);
    try {
      await p.confirm();
      const first = await eventually(
        () => collectOf(p.id),
        (t) => Boolean(t?.broadcast_at),
        30_000,
      );
      // The network asks more than the submission offers: the next block is mined without it.
      await anvil().setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('5') });
      await anvil().mine({ blocks: 1 });
      const replaced = await eventually(
        () => collectOf(p.id),
        (t) => t.fee_bumps >= 1,
        30_000,
      );
      expect(BigInt(replaced.max_fee_per_gas)).toBeGreaterThan(BigInt(first.max_fee_per_gas));
      expect(replaced.previous_hashes).toContain(first.tx_hash);
      expect(replaced.nonce).toBe(first.nonce);
      const done = await paidOnce(p.id, p.buyer);
      const row = await collectOf(p.id);
      expect([row.status, done.tx_hash]).toEqual(['confirmed', row.tx_hash]);
      figures('permit2-stuck', { bumps: row.fee_bumps, firstMaxFee: first.max_fee_per_gas, finalMaxFee: row.max_fee_per_gas });
    } finally {
      await anvil().setAutomine(true);
    }
  });

  it('killed (SIGKILL) after sending a permit that the node then lost: restarted, it sends it again and pays once', async () => {
    const p = await signedPayment('p2-crash');
    const nonceBefore = await chainClient().getTransactionCount({ address: collector });
    await anvil().setAutomine(false);
    try {
      await p.confirm();
      const sent = await eventually(
        () => collectOf(p.id),
        (t) => Boolean(t?.broadcast_at),
        30_000,
      );
      await svc.kill('SIGKILL');
      await anvil().dropTransaction({ hash: sent.tx_hash });
      await anvil().mine({ blocks: 1 });
      expect(await paidFrom(p.buyer)).toEqual([]); // the node lost it: nothing moved while the service was down
      svc = await stack.start();
      const done = await paidOnce(p.id, p.buyer);
      const rows = await db('chain_transactions').where({ payment_id: p.id }).orderBy('nonce');
      expect(rows.map((t) => [t.purpose, t.status])).toEqual([
        ['collect', 'confirmed'],
        ['settle', 'confirmed'],
      ]);
      expect(rows[0].tx_hash).toBe(done.tx_hash);
      expect(await chainClient().getTransactionCount({ address: collector })).toBe(nonceBefore + 2);
    } finally {
      await anvil().setAutomine(true);
    }
  });

  it('a permitTransferFrom whose receipt the node hides is not sent twice, and pays once the receipt shows', async () => {
    const p = await signedPayment('p2-hidden');
    proxy.hide(
      (method, receipt) =>
        method === 'eth_getTransactionReceipt' &&
        (receipt?.logs ?? []).some(
          (l: { topics: string[] }) => l.topics[0] === TRANSFER_TOPIC && l.topics[1] === pad(p.buyer.address).toLowerCase(),
        ),
    );
    try {
      const logsBefore = svc.logs.length;
      await p.confirm();
      await eventually(
        () => paidFrom(p.buyer),
        (t) => t.length === 1,
        30_000,
      );
      // Stuck by its missing receipt, sent again, "nonce too low": the monitor finds its own transaction mined.
      await eventually(
        async () => svc.logs.slice(logsBefore).filter((l) => l.msg === 'transaction mined; the node does not show its receipt yet'),
        (l) => l.length > 0,
        30_000,
      );
      expect((await db('payments').where({ id: p.id }).first()).status).toBe('processing');
    } finally {
      proxy.hide(null);
    }
    await paidOnce(p.id, p.buyer);
  });
  it("ERC-6492: killed after the wallet's deployment landed and before its transfer did: the transfer still pays, once", async () => {
    const smart = newSmartWallet();
    await fund(smart.address, AMOUNT);
    const pay = await send(svc.url, 'POST', '/v1/payments', shop.headers, {
      referenceId: 'p2-6492',
      amount: { unit: 'iso4217/USD', value: '2000' },
    });
    const id = pay.body.paymentId as string;
    const opts = await send(svc.url, 'POST', `/v1/gateway/payment/${id}/options`, wallet, { accounts: [`eip155:31337:${smart.address}`] });
    const opt = opts.body.options.find((o: any) => o.amount.unit === `caip19/${DEVNET_USDC}`);
    const sig = await smart.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
    await anvil().setAutomine(false);
    try {
      await confirm(id, opt.id, [sig]);
      const sent = await eventually(
        () => db('chain_transactions').where({ payment_id: id }).orderBy('nonce'),
        (ts) => ts.length === 2 && ts.every((t) => t.broadcast_at),
        30_000,
      );
      expect(sent.map((t) => t.purpose)).toEqual(['deploy', 'collect']);
      await svc.kill('SIGKILL');
      await anvil().dropTransaction({ hash: sent[1].tx_hash }); // only the deployment is mined before the restart
      await anvil().mine({ blocks: 1 });
      expect(await smart.hasCode()).toBe(true);
      svc = await stack.start();
      const done = await settled(id);
      const rows = await db('chain_transactions').where({ payment_id: id }).orderBy('nonce');
      expect(rows.map((t) => [t.purpose, t.status])).toEqual([
        ['deploy', 'confirmed'],
        ['collect', 'confirmed'],
        ['settle', 'confirmed'],
      ]);
      expect([done.status, done.tx_hash]).toEqual(['succeeded', rows[1].tx_hash]);
      expect(await balanceOf(smart.address)).toBe(0n);
    } finally {
      await anvil().setAutomine(true);
    }
  });
});
