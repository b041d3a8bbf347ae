import { getAddress, parseAbiItem, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { createDb } from '../../src/db/knex';
import { anvil, balanceOf, chainClient, DEVNET_USDC, newBuyer, newWallet, USDC_TOKEN, useOwnChain } from '../support/chain';
import { eventually } from '../support/eventually';
import { adminOn, adminWith, newKey } from '../support/service';
import { figures, ownStack, partner, send } from './kit';

// Retiring a relayer key (issue 28, finding 7). Taking a key out of the configuration stranded what it was doing:
// its processing payments, the settlements of what it collected, and the fees left in its collector. Here key A
// is retired while a settlement and a collect of its own are waiting in the pool (automine off): the service,
// restarted with A retired and a new key B, gives new options to B only, finishes A's work from A, and the
// admin commands show A's work going to zero and then sweep A's fees to a wallet. On a chain of this file's own.

jest.setTimeout(180_000);
useOwnChain();

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const CHAIN = 'eip155:31337';

describe('retiring a relayer key', () => {
  let stack: Awaited<ReturnType<typeof ownStack>>;
  let db: ReturnType<typeof createDb>;
  const keyB = generatePrivateKey();
  let keyA: Hex;
  let A: Address;
  const B = privateKeyToAddress(keyB);

  beforeAll(async () => {
    stack = await ownStack('paygate_faults_retire');
    db = createDb(stack.dbUrl, 2);
    keyA = stack.env.DEVNET_RELAYER_KEYS as Hex;
    A = privateKeyToAddress(keyA);
  }, 60_000);
  afterAll(async () => {
    await anvil().setAutomine(true);
    await db?.destroy();
    await stack?.close();
  });

  it("finishes a retired key's payments from it, then sweeps its fees", async () => {
    const first = await stack.start();
    let url = first.url;
    const s = await partner(url, stack.dbUrl, 'Retiring Key');
    await adminOn(stack.dbUrl, 'accounts', 'set-fee', '--account', s.accountId, '--base-minor', '0', '--percent', '1');
    const wallet = { 'Api-Key': (await newKey(s.accountId, 'wallet', stack.dbUrl)).apiKey };
    const destination = getAddress((await db('crypto_settlements').where({ merchant_id: s.merchantId }).first()).destination.split(':')[2]);
    const buyers = [await newBuyer(50_000_000n), await newBuyer(50_000_000n)];

    /** A USD 50.00 payment's options for `buyer`: the first one and the key its authorization pays. */
    const quote = async (ref: string, buyer: Address) => {
      const id = (await send(url, 'POST', '/v1/payments', s.headers, { referenceId: ref, amount: { unit: 'iso4217/USD', value: '5000' } }))
        .body.paymentId as string;
      const opt = (await send(url, 'POST', `/v1/gateway/payment/${id}/options`, wallet, { accounts: [`${CHAIN}:${buyer}`] })).body
        .options[0];
      const typed = JSON.parse(opt.actions[0].data.params[1]);
      return { id, opt, typed, payee: getAddress(typed.message.to) };
    };
    const confirm = async (ref: string, buyer: (typeof buyers)[number]) => {
      const q = await quote(ref, buyer.address);
      const sig = await buyer.signTypedData(q.typed);
      const c = await send(url, 'POST', `/v1/gateway/payment/${q.id}/confirm`, wallet, {
        optionId: q.opt.id,
        results: [{ type: 'walletRpc', data: [sig] }],
      });
      expect([c.status, c.body.status]).toEqual([200, 'processing']);
      return q;
    };
    const sent = (id: string, purpose: string) =>
      db('chain_transactions').where({ payment_id: id, purpose }).whereNotNull('broadcast_at').select('sender', 'status', 'tx_hash');

    // Under A: payment 1 collected and its settlement in the pool, payment 2's collect in the pool.
    await anvil().setAutomine(false);
    const p1 = await confirm('retire-1', buyers[0]);
    expect(p1.payee).toBe(A);
    await eventually(
      () => sent(p1.id, 'collect'),
      (t) => t.length === 1,
      20_000,
    );
    await anvil().mine({ blocks: 1 });
    await eventually(
      () => sent(p1.id, 'settle'),
      (t) => t.length === 1,
      20_000,
    );
    const p2 = await confirm('retire-2', buyers[1]);
    await eventually(
      () => sent(p2.id, 'collect'),
      (t) => t.length === 1,
      20_000,
    );

    // Restart: A retired, B the relayer key. A's transactions wait in the pool meanwhile.
    await first.kill();
    const retiredEnv = { DEVNET_RELAYER_KEYS: keyB, DEVNET_RETIRED_RELAYER_KEYS: keyA };
    url = (await stack.start(retiredEnv)).url;
    const adminEnv = { ...stack.env, ...retiredEnv };
    const status = async () => {
      const r = await adminWith(adminEnv, 'relayer', 'status', '--chain', CHAIN, '--address', A);
      expect([r.code, r.stderr]).toEqual([0, '']);
      return r.out;
    };
    const usdc = (st: any) => st.assets.find((a: { asset: string }) => a.asset === DEVNET_USDC);

    const p3 = await quote('retire-3', buyers[0].address);
    expect(p3.payee).toBe(B);
    expect((await db('payment_options').where({ id: p3.opt.id }).first()).relayer).toBe(B);

    const before = await status();
    expect(before).toMatchObject({
      chain: CHAIN,
      address: A,
      key: 'retired',
      processingPayments: [p2.id],
      unsettled: [{ asset: DEVNET_USDC, payments: 1, owed: '49500000' }],
    });
    expect(before.openTransactions.map((t: { purpose: string; paymentId: string }) => [t.purpose, t.paymentId])).toEqual([
      ['settle', p1.id],
      ['collect', p2.id],
    ]);
    // Payment 1's collect is in A's balance; its settlement (in the pool) is owed.
    expect(usdc(before)).toMatchObject({ balance: '50000000', owed: '49500000', sweepable: '500000' });

    const to = newWallet();
    const early = await adminWith(adminEnv, 'relayer', 'sweep', '--chain', CHAIN, '--address', A, '--to', to);
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/open work/);
    const active = await adminWith(adminEnv, 'relayer', 'sweep', '--chain', CHAIN, '--address', B, '--to', to);
    expect(active.code).toBe(1);
    expect(active.stderr).toMatch(/not retired/);
    const metrics = await fetch(`${url}/metrics`).then((r) => r.text());
    expect(metrics).toContain(`paygate_relayer_retired{chain="${CHAIN}",relayer="${A}"} 1`);
    expect(metrics).toContain(`paygate_relayer_retired{chain="${CHAIN}",relayer="${B}"} 0`);

    // Mined: the retired key's monitor confirms both, and payment 2 is settled from A.
    await anvil().setAutomine(true);
    await anvil().mine({ blocks: 1 });
    const settled = await eventually(
      () => db('payments').whereIn('id', [p1.id, p2.id]).orderBy('reference_id').select('id', 'status', 'settled_at'),
      (ps) => ps.every((p) => p.settled_at !== null),
      45_000,
    );
    expect(settled.map((p) => [p.status, p.settled_at !== null])).toEqual([
      ['succeeded', true],
      ['succeeded', true],
    ]);
    const settles = await db('chain_transactions')
      .whereIn('payment_id', [p1.id, p2.id])
      .where({ purpose: 'settle' })
      .orderBy('id')
      .select('sender', 'status');
    expect(settles.map((t) => [t.sender, t.status])).toEqual([
      [A, 'confirmed'],
      [A, 'confirmed'],
    ]);
    const paid = await chainClient().getLogs({ address: USDC_TOKEN, event: TRANSFER, args: { from: A, to: destination }, fromBlock: 0n });
    expect(paid.map((t) => t.args.value)).toEqual([49_500_000n, 49_500_000n]);

    const after = await status();
    expect(after).toMatchObject({ openTransactions: [], processingPayments: [], unsettled: [] });
    expect(usdc(after)).toMatchObject({ balance: '1000000', owed: '0', sweepable: '1000000' });

    const swept = await adminWith(adminEnv, 'relayer', 'sweep', '--chain', CHAIN, '--address', A, '--to', to);
    expect([swept.code, swept.stderr]).toEqual([0, '']);
    expect(swept.out.transactions).toEqual([expect.objectContaining({ asset: DEVNET_USDC, amount: '1000000', to })]);
    const sweep = await eventually(
      () => db('chain_transactions').where({ sender: A, purpose: 'sweep' }).select('status', 'payment_id', 'tx_hash'),
      (t) => t.length === 1 && t[0].status === 'confirmed',
      30_000,
    );
    expect(sweep).toEqual([{ status: 'confirmed', payment_id: null, tx_hash: swept.out.transactions[0].hash }]);
    expect(await balanceOf(to)).toBe(1_000_000n);
    expect(await balanceOf(A)).toBe(0n);
    const done = await status();
    expect(done).toMatchObject({ openTransactions: [], processingPayments: [], unsettled: [] });
    expect(usdc(done)).toMatchObject({ balance: '0', sweepable: '0' });
    const nothing = await adminWith(adminEnv, 'relayer', 'sweep', '--chain', CHAIN, '--address', A, '--to', to);
    expect([nothing.code, nothing.out]).toEqual([0, { chain: CHAIN, address: A, transactions: [] }]);
    figures('relayer-retirement', {
      openBefore: before.openTransactions.length,
      sweptUnits: swept.out.transactions[0].amount,
      collectorAfter: usdc(done).balance,
      settledFrom: [...new Set(settles.map((t) => t.sender))],
    });
  });
});
