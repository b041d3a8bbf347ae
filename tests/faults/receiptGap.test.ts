import { getAddress, pad, parseAbiItem, type Address, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { createDb } from '../../src/db/knex';
import { balanceOf, chainClient, fund, newBuyer, USDC_TOKEN } from '../support/chain';
import { eventually } from '../support/eventually';
import { startRpcProxy, type Hider } from '../support/rpcProxy';
import { adminWith, newKey } from '../support/service';
import { figures, ownStack, partner, send, sleep } from './kit';

// The receipt gap (issue 28, finding 1): the RPC node answers no receipt for a transaction that is mined (a
// receipt index that lags, a load-balanced provider whose backends disagree). The relayer must never take that
// absence for a lost transaction: a settlement paid twice out of the collector's pooled funds, or a collected
// payment failed with authorization_used although the buyer was charged, were what it did. Receipts stay hidden
// long enough for the monitor to find the transaction stuck, send it again and be told "nonce too low".

jest.setTimeout(150_000);

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const HIDDEN_MS = 9000;
/** Sent to the collector outside any payment: what `admin ledger check` reports as its difference. */
const EXTERNAL_FUNDS = 500_000_000n;

/** Hides the receipts of transactions that move USDC from `from` to `to`. */
const receiptsOfTransfers =
  (from: Address, to: Address): Hider =>
  (method, receipt) =>
    method === 'eth_getTransactionReceipt' &&
    (receipt.logs ?? []).some(
      (l: { topics: string[] }) =>
        l.topics[0] === TRANSFER_TOPIC && l.topics[1] === pad(from).toLowerCase() && l.topics[2] === pad(to).toLowerCase(),
    );

const transfers = async (from: Address, to: Address) =>
  chainClient().getLogs({ address: USDC_TOKEN, event: TRANSFER, args: { from, to }, fromBlock: 0n });

describe('receipts the RPC node does not show for a while', () => {
  const proxyP = startRpcProxy(process.env.DEVNET_RPC_URL!);
  let stack: Awaited<ReturnType<typeof ownStack>>;
  let url: string;
  let shop: Awaited<ReturnType<typeof partner>>;
  let wallet: Record<string, string>;
  let collector: Address;
  let destination: Address;
  let db: ReturnType<typeof createDb>;
  let externalMint: Hex;

  beforeAll(async () => {
    const proxy = await proxyP;
    stack = await ownStack('paygate_faults_receipts', { DEVNET_RPC_URL: proxy.url, CHAIN_STUCK_AFTER_MS: '1000' });
    db = createDb(stack.dbUrl, 2);
    url = (await stack.start()).url;
    shop = await partner(url, stack.dbUrl, 'Receipt Gap');
    wallet = { 'Api-Key': (await newKey(shop.accountId, 'wallet', stack.dbUrl)).apiKey };
    collector = privateKeyToAddress(stack.env.DEVNET_RELAYER_KEYS as Hex);
    destination = getAddress((await db('crypto_settlements').where({ merchant_id: shop.merchantId }).first()).destination.split(':')[2]);
    // Other payments' money waiting in the collector: a second settlement would find funds to pay.
    externalMint = await fund(collector, EXTERNAL_FUNDS);
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
    await stack?.close();
    await (await proxyP).close();
  });

  /** A USD 50.00 payment confirmed by a new buyer holding exactly its amount. */
  async function confirmedPayment(ref: string) {
    const buyer = await newBuyer(50_000_000n);
    const id = (await send(url, 'POST', '/v1/payments', shop.headers, { referenceId: ref, amount: { unit: 'iso4217/USD', value: '5000' } }))
      .body.paymentId;
    const opt = (await send(url, 'POST', `/v1/gateway/payment/${id}/options`, wallet, { accounts: [`eip155:31337:${buyer.address}`] })).body
      .options[0];
    const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
    const c = await send(url, 'POST', `/v1/gateway/payment/${id}/confirm`, wallet, {
      optionId: opt.id,
      results: [{ type: 'walletRpc', data: [sig] }],
    });
    expect([c.status, c.body.status]).toEqual([200, 'processing']);
    return { id: id as string, buyer };
  }
  const paymentRow = (id: string) => db('payments').where({ id }).first();
  /** `admin ledger check` on the stack's database through the proxy: its exit code, what it left unrecorded, the collector's difference. */
  async function ledgerCheck(waitS: string) {
    const { code, out } = await adminWith(
      { DATABASE_URL: stack.dbUrl, DEVNET_RPC_URL: (await proxyP).url },
      'ledger',
      'check',
      '--wait',
      waitS,
    );
    const diff = out.differences.find((d: { holder: string }) => d.holder === collector);
    return { code, unrecorded: out.chains[0].unrecorded, collector: diff?.difference as string | undefined };
  }

  it('a settlement whose receipt is hidden is paid once, and settles once the receipt shows', async () => {
    const proxy = await proxyP;
    proxy.hide(receiptsOfTransfers(collector, destination));
    const { id } = await confirmedPayment('gap-settle');
    await eventually(
      () => paymentRow(id),
      (p) => p.status === 'succeeded',
      30_000,
    );
    await eventually(
      () => transfers(collector, destination),
      (t) => t.length > 0,
      30_000,
    );
    await sleep(HIDDEN_MS); // stuck, replaced, "nonce too low"
    const whileHidden = await transfers(collector, destination);
    const hiddenRow = await paymentRow(id);
    proxy.hide(null);
    const settled = await eventually(
      () => paymentRow(id),
      (p) => p.settled_at !== null,
      30_000,
    );
    await sleep(1000);
    const paid = await transfers(collector, destination);
    const settles = await db('chain_transactions').where({ payment_id: id, purpose: 'settle' }).select('status', 'tx_hash');
    figures('receipt-gap-settlement', { hiddenMs: HIDDEN_MS, transfersWhileHidden: whileHidden.length, transfers: paid.length });
    expect(whileHidden).toHaveLength(1);
    expect(hiddenRow.settled_at).toBeNull();
    expect(paid.map((t) => t.args.value)).toEqual([50_000_000n]);
    expect(await balanceOf(destination)).toBe(50_000_000n);
    expect(settles).toEqual([{ status: 'confirmed', tx_hash: paid[0].transactionHash }]);
    expect(settled.settlement_tx_hash).toBe(paid[0].transactionHash);
    const r = await send(url, 'GET', `/v1/payments/${id}`, shop.headers);
    expect([r.status, r.body.status]).toEqual([200, 'succeeded']);
  });

  it('a collect whose receipt is hidden succeeds with that transaction; the buyer is charged once', async () => {
    const proxy = await proxyP;
    // Every transfer into the collector: the buyer is made by the confirm below.
    proxy.hide(
      (method, receipt) =>
        method === 'eth_getTransactionReceipt' &&
        (receipt.logs ?? []).some(
          (l: { topics: string[] }) => l.topics[0] === TRANSFER_TOPIC && l.topics[2] === pad(collector).toLowerCase(),
        ),
    );
    const { id, buyer: payer } = await confirmedPayment('gap-collect');
    await eventually(
      () => transfers(payer.address, collector),
      (t) => t.length > 0,
      30_000,
    );
    await sleep(HIDDEN_MS);
    const hiddenRow = await paymentRow(id);
    // Mined and not recorded: the ledger check says so (its 50.00 in the collector is no difference of the ledger's).
    const collect = await db('chain_transactions').where({ payment_id: id, purpose: 'collect' }).first();
    // Beside it, an open transaction of a sender that holds nothing in the ledger (a key no running configuration has),
    // its nonce used on chain: it moves nothing the check compares, so the check neither lists nor waits for it.
    const mint = await chainClient().getTransaction({ hash: externalMint });
    const [stranger] = await db('chain_transactions')
      .insert({
        ...{ chain_id: 'eip155:31337', sender: mint.from, nonce: mint.nonce, purpose: 'sweep', to_address: mint.to, calldata: '0x' },
        ...{ gas_limit: 21_000, max_fee_per_gas: 1, max_priority_fee_per_gas: 1, raw_tx: '0x', tx_hash: mint.hash },
      })
      .returning('id');
    const notWaiting = await ledgerCheck('0');
    // Waiting, it checks once the service has recorded it: the receipt shows meanwhile.
    const waiting = ledgerCheck('60');
    await sleep(1000);
    proxy.hide(null);
    const afterWait = await waiting;
    await db('chain_transactions').where({ id: stranger.id }).del();
    const done = await eventually(
      () => paymentRow(id),
      (p) => p.status !== 'processing',
      30_000,
    );
    const collected = await transfers(payer.address, collector);
    figures('receipt-gap-collect', { hiddenMs: HIDDEN_MS, statusWhileHidden: hiddenRow.status, final: done.status });
    expect(hiddenRow.status).toBe('processing');
    expect(notWaiting).toEqual({
      code: 1,
      unrecorded: [{ sender: collector, nonce: String(collect.nonce) }],
      collector: String(EXTERNAL_FUNDS + 50_000_000n),
    });
    expect(afterWait).toEqual({ code: 1, unrecorded: [], collector: String(EXTERNAL_FUNDS) });
    expect(done.status).toBe('succeeded');
    expect(done.tx_hash).toBe(collected[0].transactionHash);
    expect(collected).toHaveLength(1);
    expect(await balanceOf(payer.address)).toBe(0n);
    expect(await db('payment_events').where({ payment_id: id, type: 'payment.failed' })).toEqual([]);
  });
});
