import { getAddress, parseAbiItem, type Address, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { createDb } from '../../src/db/knex';
import { loggablePaymentId } from '../../src/domain/gatewayId';
import { anvil, balanceOf, chainClient, newBuyer, tokenAdmin, USDC_TOKEN, useOwnChain } from '../support/chain';
import { eventually } from '../support/eventually';
import { startRpcProxy, type RpcCall } from '../support/rpcProxy';
import { adminOn } from '../support/service';
import type { ServiceProcess } from '../support/serviceProcess';
import { figures, ownStack, partner, send } from './kit';

// A settlement held after its last attempt, then settled without an operator (issue 28, seen once in the soak). Two
// attempts of one settlement ran at once (the reconciler starts one at every pass while it is due, and a slow RPC
// answer keeps the first one going): one's simulation failed while the other's passed and sent the transfer. The
// failure was counted and held the settlement while that transfer could still be mined; or the hold came first and
// the transfer was stored anyway. The RPC proxy keeps one attempt's simulation answer back to replay both orders. Now
// a failure is not counted while a settlement transaction stands, and a held settlement is never stored for sending.
// On a chain of this file's own: automine is turned off and on, and the destination blacklisted.

jest.setTimeout(120_000);
useOwnChain();

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const TRANSFER_SELECTOR = '0xa9059cbb';

describe('a settlement attempt that fails while another one sends', () => {
  let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
  let stack: Awaited<ReturnType<typeof ownStack>>;
  let svc: ServiceProcess;
  let db: ReturnType<typeof createDb>;
  let collector: Address;

  beforeAll(async () => {
    proxy = await startRpcProxy(process.env.DEVNET_RPC_URL!);
    // Two attempts hold a settlement; the reconciler passes once a second, so the second attempt of a round starts
    // a second after the first.
    stack = await ownStack('paygate_faults_hold_race', {
      DEVNET_RPC_URL: proxy.url,
      SETTLEMENT_MAX_ATTEMPTS: '2',
      SETTLEMENT_RETRY_BASE_MS: '2000',
      SWEEP_INTERVAL_MS: '1000',
    });
    db = createDb(stack.dbUrl, 2);
    svc = await stack.start();
    collector = privateKeyToAddress(stack.env.DEVNET_RELAYER_KEYS as Hex);
  }, 60_000);
  afterAll(async () => {
    await anvil().setAutomine(true);
    await db?.destroy();
    await stack?.close();
    await proxy?.close();
  });

  /** The token's issuer call, mined (automine is on). */
  const issuer = async (call: 'blacklist' | 'unBlacklist', who: Address) =>
    chainClient().waitForTransactionReceipt({ hash: await tokenAdmin(call, who) });
  /** The relayer's simulation of a settlement transfer (from the collector: a token `transfer`). */
  const settleSimulation = (c: RpcCall) =>
    c.method === 'eth_estimateGas' &&
    String(c.params?.[0]?.from).toLowerCase() === collector.toLowerCase() &&
    String(c.params?.[0]?.data).startsWith(TRANSFER_SELECTOR);
  const payment = (id: string) => db('payments').where({ id }).first();
  const settles = (id: string) => db('chain_transactions').where({ payment_id: id, purpose: 'settle' }).orderBy('id');
  /** The payment's settlement events, in order. */
  const events = async (id: string) =>
    (await db('payment_events').where({ payment_id: id }).orderBy('version').pluck('type')).filter((t) => t.startsWith('payment.settle'));
  const failures = (id: string) => db('settlement_failures').where({ payment_id: id }).orderBy('id').select('attempt', 'reason', 'held');
  const paid = async (to: Address) =>
    (await chainClient().getLogs({ address: USDC_TOKEN, event: TRANSFER, args: { from: collector, to }, fromBlock: 0n })).map(
      (l) => l.args.value,
    );
  /** Waits for the service to log `msg` (a prefix) about the payment. */
  const logged = (id: string, msg: RegExp) =>
    eventually(
      async () => svc.logs.filter((l) => (l as { paymentId?: string }).paymentId === loggablePaymentId(id) && msg.test(l.msg)),
      (ls) => ls.length > 0,
      20_000,
    );

  /**
   * A USD 50.00 payment to a shop whose destination the token blacklists: collected, and its first settlement attempt
   * failed in simulation (attempts 1, the next due two seconds later).
   */
  async function failedOnce(name: string) {
    const s = await partner(svc.url, stack.dbUrl, name);
    const wallet = { 'Api-Key': (await adminOn(stack.dbUrl, 'keys', 'create', '--account', s.accountId, '--type', 'wallet')).apiKey };
    const destination = getAddress((await db('crypto_settlements').where({ merchant_id: s.merchantId }).first()).destination.split(':')[2]);
    await issuer('blacklist', destination);
    const buyer = await newBuyer(50_000_000n);
    const id = (
      await send(svc.url, 'POST', '/v1/payments', s.headers, { referenceId: name, amount: { unit: 'iso4217/USD', value: '5000' } })
    ).body.paymentId as string;
    const opt = (await send(svc.url, 'POST', `/v1/gateway/payment/${id}/options`, wallet, { accounts: [`eip155:31337:${buyer.address}`] }))
      .body.options[0];
    const c = await send(svc.url, 'POST', `/v1/gateway/payment/${id}/confirm`, wallet, {
      optionId: opt.id,
      results: [{ type: 'walletRpc', data: [await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]))] }],
    });
    expect([c.status, c.body.status]).toEqual([200, 'processing']);
    await eventually(
      () => payment(id),
      (p) => p.settlement_attempts === 1,
      20_000,
    );
    return { s, id, destination };
  }

  it('a failed simulation while another attempt has sent the transfer is not counted: no hold, settled once', async () => {
    const { s, id, destination } = await failedOnce('Race Sent First');
    // The next attempt's simulation: judged while the destination is blacklisted (it fails), heard late.
    const slow = proxy.holdAnswer(settleSimulation);
    await slow.arrived;
    await issuer('unBlacklist', destination);
    await anvil().setAutomine(false);
    // The reconciler's next pass starts another attempt: it simulates, passes, sends the transfer (not yet mined).
    await eventually(
      () => settles(id),
      (t) => t.length === 1 && t[0].broadcast_at !== null,
      20_000,
    );
    slow.release(); // the first attempt hears its failure now
    await logged(id, /^settlement (held|attempt failed while another stands)/);
    const meanwhile = await payment(id);
    await anvil().setAutomine(true);
    await anvil().mine({ blocks: 1 });
    const done = await eventually(
      () => payment(id),
      (p) => p.settled_at !== null,
      30_000,
    );
    figures('settlement-race-sent-first', { heldMeanwhile: meanwhile.settlement_held_at !== null, events: await events(id) });
    expect(meanwhile).toMatchObject({ settlement_held_at: null, settlement_attempts: 1 });
    expect(done).toMatchObject({ settlement_held_at: null, settlement_attempts: 1, settlement_tx_hash: (await settles(id))[0].tx_hash });
    expect((await settles(id)).map((t) => t.status)).toEqual(['confirmed']);
    expect(await events(id)).toEqual(['payment.settled']);
    expect(await failures(id)).toEqual([{ attempt: 1, reason: 'simulation:token_refused', held: false }]);
    expect(await paid(destination)).toEqual([50_000_000n]);
    expect(await balanceOf(destination)).toBe(50_000_000n);
    expect((await send(svc.url, 'GET', `/v1/payments/${id}`, s.headers)).body.status).toBe('succeeded');
  });

  it('an attempt prepared while another one holds the settlement sends nothing until an operator retries it', async () => {
    const { id, destination } = await failedOnce('Race Held First');
    await issuer('unBlacklist', destination);
    // The next attempt's simulation passes; it hears so late.
    const slow = proxy.holdAnswer(settleSimulation);
    await slow.arrived;
    await issuer('blacklist', destination);
    // Meanwhile the reconciler's next pass starts another attempt: its simulation fails, the last allowed: held.
    await eventually(
      () => payment(id),
      (p) => p.settlement_held_at !== null,
      20_000,
    );
    await issuer('unBlacklist', destination); // a transfer sent now would pay
    slow.release();
    await eventually(
      async () => ({
        refused: svc.logs.some(
          (l) => (l as { paymentId?: string }).paymentId === loggablePaymentId(id) && /^settlement not sent/.test(l.msg),
        ),
        sent: (await settles(id)).length,
      }),
      (r) => r.refused || r.sent > 0,
      20_000,
    );
    await anvil().mine({ blocks: 2 });
    const held = await payment(id);
    const sentWhileHeld = (await settles(id)).length;
    figures('settlement-race-held-first', { sentWhileHeld, settledWithoutOperator: held.settled_at !== null });
    expect(sentWhileHeld).toBe(0);
    expect(held).toMatchObject({ settled_at: null, settlement_attempts: 2, settlement_hold_reason: 'simulation:token_refused' });
    expect(await paid(destination)).toEqual([]);
    expect(await failures(id)).toEqual([
      { attempt: 1, reason: 'simulation:token_refused', held: false },
      { attempt: 2, reason: 'simulation:token_refused', held: true },
    ]);
    // The operator's retry pays it, once.
    expect(await adminOn(stack.dbUrl, 'settlements', 'retry', '--payment', id)).toEqual({ paymentId: id, retried: true });
    await eventually(
      () => payment(id),
      (p) => p.settled_at !== null,
      30_000,
    );
    expect(await paid(destination)).toEqual([50_000_000n]);
    expect(await events(id)).toEqual(['payment.settlement_held', 'payment.settled']);
  });
});
