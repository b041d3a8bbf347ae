import { getAddress, parseSignature, serializeSignature, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { admin, client, externalService, startTestService, TestService } from '../support/service';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { anvil, balanceOf, chainClient, DEVNET_USDC, fund, newBuyer, newWallet, receiptOf, useOwnChain } from '../support/chain';
import { spawnService, type ServiceProcess } from '../support/serviceProcess';
import { startRpcProxy } from '../support/rpcProxy';
import { useOwnDatabase } from '../support/freshDb';

// The money path on a real chain (the run's anvil): what is refused before anything moves, what happens
// when the chain misbehaves (expiry before inclusion, reorgs), fees and destinations at settlement, direct
// mode, and the relayer under concurrency and crashes. Each scenario asserts on the API, the database and
// the chain itself.

/** Retries `read` until it stops throwing; after `ms`, its last error fails the test. */
async function eventually<T>(read: () => Promise<T>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await read();
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const describeLocal = externalService ? describe.skip : describe;
// Snapshots and reverts, automine off, reorgs: on a chain of this file's own, not the one other test files share,
// and with a database of its own (no later file's service picks up a submission left on this chain).
if (!externalService) {
  useOwnChain();
  useOwnDatabase('paygate_chain');
}
// Real processes, a real chain and block waits: generous limits on a shared 2-core machine (not timings).
jest.setTimeout(120_000);

type Shop = Awaited<ReturnType<typeof merchantWithSettlement>>;

async function setup(svc: { url: string } & Partial<TestService>) {
  const shop = await merchantWithSettlement(svc as TestService, 'Chain Shop');
  const wallet = await admin('keys', 'create', '--account', shop.accountId, '--type', 'wallet');
  return { shop, gw: client(svc.url, { 'Api-Key': wallet.apiKey }) };
}

function flow(url: string, shop: Shop, gw: ReturnType<typeof client>) {
  const pay = async (value = '1000') => {
    const r = await shop.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value } },
    });
    if (r.status !== 201) throw new Error(r.text);
    return r.body.paymentId as string;
  };
  const option = async (id: string, buyer: PrivateKeyAccount) => {
    const r = await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [`eip155:31337:${buyer.address}`] } });
    if (r.status !== 200 || !r.body.options?.length) throw new Error(r.text);
    const opt = r.body.options[0];
    return { opt, td: JSON.parse(opt.actions[0].data.params[1]) };
  };
  const confirm = (id: string, optionId: string, sig: string) =>
    gw('POST', `/v1/gateway/payment/${id}/confirm`, { body: { optionId, results: [{ type: 'walletRpc', data: [sig] }] } });
  const details = async (id: string) => (await shop.asMerchant('GET', `/v1/payments/${id}`)).body;
  const until = (id: string, ok: (d: any) => boolean, timeoutMs = 20_000) =>
    eventually(async () => {
      const d = await details(id);
      if (!ok(d))
        throw new Error(`payment ${id}: ${JSON.stringify({ status: d.status, failureCode: d.failureCode, settlement: d.settlement })}`);
      return d;
    }, timeoutMs);
  return { pay, option, confirm, details, until, url };
}

describeLocal('on the development chain', () => {
  let svc: TestService;
  let f: ReturnType<typeof flow>;
  let shop: Shop;

  beforeAll(async () => {
    svc = await startTestService();
    const s = await setup(svc);
    shop = s.shop;
    f = flow(svc.url, shop, s.gw);
  });
  afterAll(() => svc.close());

  it('an unfunded buyer is refused at confirm (422 insufficient_funds); funded, the same option pays', async () => {
    const buyer = await newBuyer();
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    const sig = await buyer.signTypedData(td);
    const refused = await f.confirm(id, opt.id, sig);
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 422, code: 'insufficient_funds' });
    expect((await svc.db('payments').where({ id }).first()).status).toBe('requires_action');
    expect(await svc.db('chain_transactions').where({ payment_id: id })).toHaveLength(0);

    await fund(buyer.address, 10_000_000n);
    // The refusal of this option and signature is remembered for CONFIRM_REFUSAL_CACHE_MS (2 s), then checked again.
    const paid = await eventually(async () => {
      const r = await f.confirm(id, opt.id, sig);
      if (r.body.status !== 'processing') throw new Error(`confirm answered ${r.status} ${r.body.code}`);
      return r;
    }, 5000);
    expect(paid.body.status).toBe('processing');
    const done = await f.until(id, (d) => d.status === 'succeeded');
    expect((await receiptOf(done.info.txId)).status).toBe('success');
    expect(await balanceOf(buyer.address)).toBe(0n);
  });

  it('a high-s signature with v 0/1 is normalised to the form the token accepts, and pays', async () => {
    const buyer = await newBuyer(10_000_000n);
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    const sig = parseSignature(await buyer.signTypedData(td));
    const highS = `0x${(N - BigInt(sig.s)).toString(16).padStart(64, '0')}` as Hex;
    const malleable =
      serializeSignature({ r: sig.r, s: highS, yParity: sig.yParity === 0 ? 1 : 0 }).slice(0, 130) + (sig.yParity === 0 ? '01' : '00');
    expect((await f.confirm(id, opt.id, malleable)).body.status).toBe('processing');
    const stored = (await svc.db('payments').where({ id }).first()).signature as Hex;
    expect(BigInt(parseSignature(stored).s) <= N / 2n).toBe(true);
    expect((await receiptOf((await f.until(id, (d) => d.status === 'succeeded')).info.txId)).status).toBe('success');
  });

  it('fee (base + percent) is kept; the destination current at settlement time receives amount − fee', async () => {
    const buyer = await newBuyer(100_000_000n);
    expect(await admin('accounts', 'set-fee', '--account', shop.accountId, '--base-minor', '10', '--percent', '1.5')).toEqual({
      accountId: shop.accountId,
      feeBaseMinor: '10',
      feePercent: '1.5',
    });
    try {
      const id = await f.pay('1000'); // USD 10.00 -> fee 0.10 + 1.5 % = 0.25 USDC
      const { opt, td } = await f.option(id, buyer);
      const moved = newWallet();
      const [s] = (await shop.api('GET', `/v1/merchants/${shop.merchantId}/settlements`)).body.crypto;
      expect(
        (
          await shop.api('PUT', `/v1/merchants/${shop.merchantId}/settlements/crypto/${s.id}`, {
            body: { destination: `eip155:31337:${moved}` },
          })
        ).status,
      ).toBe(200);
      expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).status).toBe(200);
      const d = await f.until(id, (x) => x.settlement !== null);
      expect(d.settlement.successful.amount).toEqual({ unit: `caip19/${DEVNET_USDC}`, value: '9750000' });
      expect(await balanceOf(moved)).toBe(9_750_000n);
      const item = (await shop.api('GET', `/v1/payments?merchantId=${shop.merchantId}&status=succeeded`)).body.data.find(
        (p: any) => p.paymentId === id,
      );
      expect(item).toMatchObject({
        fees: { total: { value: '250000' } },
        settlement: { settled: true, amount: { value: '9750000' }, txHash: d.settlement.successful.txId },
      });
      expect(await svc.db('payments').where({ id }).first()).toMatchObject({
        fee_amount: '250000',
        settlement_amount: '9750000',
        settlement_destination: `eip155:31337:${moved}`,
      });
    } finally {
      await admin('accounts', 'set-fee', '--account', shop.accountId, '--base-minor', '0', '--percent', '0');
    }
  });

  it('direct mode: TransferWithAuthorization straight to the merchant, no settlement transfer', async () => {
    const direct = await merchantWithSettlement(svc, 'Direct Shop');
    expect(await admin('accounts', 'set-mode', '--account', direct.accountId, '--mode', 'direct')).toEqual({
      accountId: direct.accountId,
      settlementMode: 'direct',
    });
    const wallet = await admin('keys', 'create', '--account', direct.accountId, '--type', 'wallet');
    const g = flow(svc.url, direct, client(svc.url, { 'Api-Key': wallet.apiKey }));
    const buyer = await newBuyer(10_000_000n);
    const id = await g.pay('500');
    const { opt, td } = await g.option(id, buyer);
    expect(td.primaryType).toBe('TransferWithAuthorization');
    expect(td.message.to).toBe(getAddress(direct.wallet));
    expect((await g.confirm(id, opt.id, await buyer.signTypedData(td))).status).toBe(200);
    const d = await g.until(id, (x) => x.status === 'succeeded');
    expect(await balanceOf(direct.wallet)).toBe(5_000_000n);
    await new Promise((r) => setTimeout(r, 500));
    expect((await g.details(id)).settlement).toBeNull();
    expect((await svc.db('chain_transactions').where({ payment_id: id })).map((t) => t.purpose)).toEqual(['direct']);
    expect((await receiptOf(d.info.txId)).status).toBe('success');
  });

  it('relayer metrics: gas per key, pending transactions, settlement backlog', async () => {
    const text = await (await fetch(`${svc.url}/metrics`)).text();
    expect(text).toMatch(/paygate_relayer_balance_wei\{chain="eip155:31337",relayer="0x[0-9a-fA-F]{40}"\} [1-9]/);
    expect(text).toMatch(/paygate_relayer_balance_below_floor\{chain="eip155:31337",relayer="0x[0-9a-fA-F]{40}"\} 0/);
    expect(text).toMatch(/paygate_settlement_backlog \d+/);
  });
});

describeLocal('when the chain misbehaves (own service and relayer key; chain state restored after)', () => {
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

describeLocal('an RPC node in trouble: payments wait, then succeed; none fails', () => {
  let svc: TestService;
  let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
  let f: ReturnType<typeof flow>;
  beforeAll(async () => {
    proxy = await startRpcProxy(process.env.DEVNET_RPC_URL!);
    svc = await startTestService({ DEVNET_RPC_URL: proxy.url });
    const s = await setup(svc);
    f = flow(svc.url, s.shop, s.gw);
  });
  afterAll(async () => {
    await svc.close();
    await proxy.close();
  });

  it('broadcasts refused by the node: the signed transaction waits and is sent when the node is back', async () => {
    const buyer = await newBuyer(10_000_000n);
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    proxy.refuse('eth_sendRawTransaction');
    expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).body.status).toBe('processing');
    const stored = await eventually(async () => {
      const t = await svc.db('chain_transactions').where({ payment_id: id }).first();
      if (!t) throw new Error('not signed yet');
      return t;
    });
    await new Promise((r) => setTimeout(r, 1500)); // several monitor passes, each failing to broadcast
    expect((await f.details(id)).status).toBe('processing');
    expect(await receiptOf(stored.tx_hash).catch(() => null)).toBeNull();
    proxy.up();
    const done = await f.until(id, (x) => x.settlement !== null);
    expect(done.info.txId).toBe(stored.tx_hash); // the bytes signed before the outage, not a second signature
  });

  it('the node down entirely at confirm: 503 service_unavailable, the payment stays payable', async () => {
    const buyer = await newBuyer(10_000_000n);
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    const sig = await buyer.signTypedData(td);
    proxy.down();
    const r = await f.confirm(id, opt.id, sig);
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 503, code: 'service_unavailable' });
    expect((await svc.db('payments').where({ id }).first()).status).toBe('requires_action');
    proxy.up();
    expect((await f.confirm(id, opt.id, sig)).body.status).toBe('processing');
    expect((await f.until(id, (x) => x.status === 'succeeded')).status).toBe('succeeded');
  });
});

describeLocal('the relayer under concurrency and crashes (service processes, one relayer key)', () => {
  const relayerKey = generatePrivateKey();
  const relayer = privateKeyToAccount(relayerKey).address;
  const procs: ServiceProcess[] = [];
  afterAll(async () => {
    await anvil().setAutomine(true);
    if (process.env.DEBUG_CHAIN_TEST)
      for (const p of procs) for (const l of p.logs) if (l.level >= 30 && l.msg !== 'request') console.log(JSON.stringify(l));
    for (const p of procs) await p.kill('SIGTERM');
  });
  const start = async (env: Record<string, string> = {}) => {
    const p = await spawnService({ DEVNET_RELAYER_KEYS: relayerKey, NODE_ENV: 'test', ...env });
    procs.push(p);
    return p;
  };
  const chainNonce = () => chainClient().getTransactionCount({ address: relayer });
  /** Prints the unsettled payments' rows and transactions, and the processes' warnings and errors. */
  const explainStall = async (ids: string[], ps: ServiceProcess[]) => {
    const { db } = await startTestServiceDb();
    try {
      const payments = await db('payments')
        .whereIn('id', ids)
        .whereNull('settled_at')
        .select('id', 'status', 'failure_code', 'tx_hash', 'updated_at');
      const txs = await db('chain_transactions')
        .whereIn(
          'payment_id',
          payments.map((p) => p.id),
        )
        .orderBy('nonce');
      console.log(JSON.stringify({ unsettled: payments, transactions: txs, chainNonce: await chainNonce() }, null, 1));
    } finally {
      await db.destroy();
    }
    for (const p of ps) for (const l of p.logs) if (l.level >= 40) console.log(JSON.stringify(l));
  };

  it('two processes, 50 concurrent confirms: all succeed and settle, no nonce gap, no duplicate submission', async () => {
    // A transaction that never reaches the chain is sent again once it counts as stuck: 60 s by default, the
    // whole wait below. CI saw one payment still processing at the end of that wait (once, under the full
    // suite's load; never alone), so recovery must fit well inside it.
    const stuck = { CHAIN_STUCK_AFTER_MS: '10000' };
    const [a, b] = [await start(stuck), await start(stuck)];
    const s = await setup({ url: a.url });
    const fa = flow(a.url, s.shop, s.gw);
    const gb = client(b.url, { 'Api-Key': (await admin('keys', 'create', '--account', s.shop.accountId, '--type', 'wallet')).apiKey });
    const fb = flow(b.url, s.shop, gb);
    const before = await chainNonce();
    const buyers = await Promise.all(Array.from({ length: 50 }, () => newBuyer(10_000_000n)));
    const ids = await Promise.all(buyers.map(() => fa.pay('1000')));
    const results = await Promise.all(
      buyers.map(async (buyer, i) => {
        const via = i % 2 ? fb : fa;
        const { opt, td } = await via.option(ids[i], buyer);
        return via.confirm(ids[i], opt.id, await buyer.signTypedData(td));
      }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    try {
      for (const id of ids) await fa.until(id, (x) => x.settlement !== null, 60_000);
    } catch (e) {
      await explainStall(ids, [a, b]); // CI keeps no process logs: what a stall looked like goes into the failure output
      throw e;
    }
    const { db } = await startTestServiceDb();
    try {
      const txs = await db('chain_transactions').where({ sender: relayer }).orderBy('nonce');
      expect(txs).toHaveLength(100);
      expect(txs.map((t) => Number(t.nonce))).toEqual(Array.from({ length: 100 }, (_, i) => before + i));
      expect(new Set(txs.map((t) => `${t.payment_id}/${t.purpose}`)).size).toBe(100);
      expect(txs.every((t) => t.status === 'confirmed')).toBe(true);
    } finally {
      await db.destroy();
    }
    expect(await chainNonce()).toBe(before + 100);
  }, 120_000);

  it('SIGKILL right after a broadcast: after a restart the same transaction is found, no second one is sent', async () => {
    const p = await start();
    const s = await setup({ url: p.url });
    const fp = flow(p.url, s.shop, s.gw);
    const buyer = await newBuyer(10_000_000n);
    const id = await fp.pay('1000');
    const { opt, td } = await fp.option(id, buyer);
    const before = await chainNonce();
    await anvil().setAutomine(false);
    expect((await fp.confirm(id, opt.id, await buyer.signTypedData(td))).body.status).toBe('processing');
    const { db } = await startTestServiceDb();
    try {
      const sent = await eventually(async () => {
        const t = await db('chain_transactions').where({ payment_id: id }).first();
        if (!t?.broadcast_at) throw new Error('not broadcast yet');
        return t;
      });
      await p.kill('SIGKILL');
      const again = await start();
      await anvil().setAutomine(true);
      await anvil().mine({ blocks: 1 });
      const shopThere = { ...s.shop, asMerchant: client(again.url, { 'Api-Key': s.shop.apiKey, 'Merchant-Id': s.shop.merchantId }) };
      const done = await flow(again.url, shopThere, s.gw).until(id, (x) => x.settlement !== null, 30_000);
      expect(done.info.txId).toBe(sent.tx_hash);
      expect(await db('chain_transactions').where({ payment_id: id, purpose: 'collect' })).toHaveLength(1);
      expect(await chainNonce()).toBe(before + 2); // the collect transaction and the settlement, nothing else
    } finally {
      await db.destroy();
    }
  }, 90_000);

  it('SIGKILL while a burst of submissions is being signed in batches: after a restart every payment settles once, nonces stay contiguous', async () => {
    const p = await start();
    const s = await setup({ url: p.url });
    const fp = flow(p.url, s.shop, s.gw);
    const buyers = await Promise.all(Array.from({ length: 20 }, () => newBuyer(10_000_000n)));
    const ids = await Promise.all(buyers.map(() => fp.pay('1000')));
    const signed = await Promise.all(
      buyers.map(async (buyer, i) => {
        const { opt, td } = await fp.option(ids[i], buyer);
        return { id: ids[i], optionId: opt.id, sig: await buyer.signTypedData(td) };
      }),
    );
    const before = await chainNonce();
    await anvil().setAutomine(false); // nothing is mined (so nothing settles) until the restart
    const { db } = await startTestServiceDb();
    try {
      const confirmed = await Promise.all(signed.map((x) => fp.confirm(x.id, x.optionId, x.sig)));
      expect(confirmed.map((r) => r.status)).toEqual(Array(20).fill(200));
      // Killed as soon as a batch has committed: the others may be signed, stored, broadcast or not yet.
      await eventually(async () => {
        if (!(await db('chain_transactions').whereIn('payment_id', ids).first())) throw new Error('nothing stored yet');
      });
      await p.kill('SIGKILL');
      const again = await start();
      await anvil().setAutomine(true);
      await anvil().mine({ blocks: 1 });
      const shopThere = { ...s.shop, asMerchant: client(again.url, { 'Api-Key': s.shop.apiKey, 'Merchant-Id': s.shop.merchantId }) };
      const fa = flow(again.url, shopThere, s.gw);
      // Payments whose submission died with the process are found by the reconciler (after its idle time).
      for (const id of ids) await fa.until(id, (x) => x.settlement !== null, 100_000);
      const txs = await db('chain_transactions').where({ sender: relayer }).where('nonce', '>=', before).orderBy('nonce');
      expect(txs.map((t) => Number(t.nonce))).toEqual(Array.from({ length: 40 }, (_, i) => before + i));
      expect(new Set(txs.map((t) => `${t.payment_id}/${t.purpose}`)).size).toBe(40);
      expect(txs.every((t) => t.status === 'confirmed' && ids.includes(t.payment_id))).toBe(true);
      expect(await chainNonce()).toBe(before + 40);
    } finally {
      await db.destroy();
    }
  }, 300_000); // the reconciler finds what died with the process after 30 s idle; slow on a loaded machine
});

/** A database handle on the test database (the spawned processes' database). */
async function startTestServiceDb() {
  const { createDb } = await import('../../src/db/knex');
  return { db: createDb(process.env.DATABASE_URL!, 2) };
}
