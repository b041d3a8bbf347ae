import { getAddress, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { devnetRouterAddress, paidEvents } from '../../src/chain/nativeRouter';
import { anvil, chainClient } from '../support/chain';
import { eventually, useChainSuite } from '../support/chainSuite';
import { ethAsset, ethShop, newEthBuyer, type EthShop } from '../support/native';
import { admin, adminWith, client, startTestService, type TestService } from '../support/service';
import { strictProvider, strictWallet } from '../support/strictWallet';

// Paying in the chain's own coin (ETH) in collector mode (docs/native.md), through HTTP as a wallet does: the router
// forwards the buyer's coin to the collector, the ledger books it there, the relayer settles amount minus fee onward
// to the merchant's wallet with a transaction carrying the coin as its value, `admin ledger check` compares the
// collector's eth_getBalance, and a refund sends the coin back to the buyer (from the reserve, or from a funding payment
// in ETH, in direct mode too). Balances are read from the chain.

useChainSuite();

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };

describe('native coin (ETH) in collector mode', () => {
  let svc: TestService;
  const pub = () => chainClient();
  const balance = (address: string, blockNumber?: bigint) => pub().getBalance({ address: getAddress(address), blockNumber });

  beforeAll(async () => {
    // A schedule's minute of 1 s, for the scheduled account's case.
    svc = await startTestService({ SETTLEMENT_SCHEDULE_UNIT_MS: '1000' });
  });
  afterAll(() => svc.close());

  /** The shop's buyer pays `value` (USD minor units) in ETH with a strict wallet; the payment succeeds. */
  async function paidInEth(shop: EthShop, value: string, buyer: PrivateKeyAccount) {
    const id = await shop.pay(value);
    const { all, opt } = await shop.ethOption(id, buyer);
    expect(opt).toBeDefined();
    expect(all.some((o) => o.amount.unit.includes('/erc20:'))).toBe(true); // USDC is offered beside it
    const fetched = await shop.fetchActions(id, opt!.id);
    expect(fetched.status).toBe(200);
    const [action] = fetched.body.actions;
    const hash = (await strictWallet(strictProvider(buyer).provider)(action.data)) as Hex;
    expect((await shop.confirm(id, opt!.id, [[hash]])).status).toBe(200);
    const done = await shop.until(id, (d) => d.status === 'succeeded');
    const receipt = await pub().getTransactionReceipt({ hash });
    const [paid] = paidEvents(receipt.logs, devnetRouterAddress);
    return { id, done, receipt, wei: BigInt(opt!.amount.value), collector: getAddress(paid.to), amount: paid.amount };
  }

  const ledgerClean = async () => {
    const check = await adminWith({}, 'ledger', 'check');
    expect({ code: check.code, differences: check.out.differences, negative: check.out.negative }).toEqual({
      code: 0,
      differences: [],
      negative: [],
    });
    return check.out as { compared: { asset: string; holder: string; ledger: string; chain: string; atLeast?: boolean }[] };
  };

  it('a collector-mode ETH payment is paid to the collector, booked, settled onward less the fee, and the ledger check is clean', async () => {
    const shop = await ethShop(svc, 'ETH Collector Shop', 'collector');
    await admin('accounts', 'set-fee', '--account', shop.accountId, '--base-minor', '10', '--percent', '1');
    const buyer = await newEthBuyer();
    const merchantBefore = await balance(shop.wallet);
    const p = await paidInEth(shop, '1000', buyer); // USD 10.00: fee USD 0.10 + 1 %
    expect(p.amount).toBe(p.wei);
    expect(p.done).toMatchObject({ status: 'succeeded', info: { txId: p.receipt.transactionHash } });
    // The collector (a relayer key of this instance, not the merchant's wallet) received the quote in the payment's block.
    expect(p.collector).not.toBe(getAddress(shop.wallet));
    const at = p.receipt.blockNumber;
    expect((await balance(p.collector, at)) - (await balance(p.collector, at - 1n))).toBe(p.wei);
    // The fee at the payment's own rate (ETH pegs to nothing): 10 minor of 1000, and 1 % of the amount.
    const fee = (10n * p.wei) / 1000n + (p.wei * 100n) / 10_000n;
    const d = await eventually(async () => {
      const x = await shop.details(p.id);
      if (x.settlement?.successful === undefined) throw new Error(JSON.stringify(x));
      return x;
    }, 40_000);
    expect(d.settlement.successful.amount).toMatchObject({ unit: `caip19/${ethAsset()}`, value: (p.wei - fee).toString() });
    await eventually(async () => expect((await balance(shop.wallet)) - merchantBefore).toBe(p.wei - fee), 30_000);
    const settle = await pub().getTransaction({ hash: d.settlement.successful.txId });
    expect({ from: getAddress(settle.from), to: getAddress(settle.to!), value: settle.value, input: settle.input }).toEqual({
      from: p.collector,
      to: getAddress(shop.wallet),
      value: p.wei - fee,
      input: '0x',
    });
    // The ledger: collected at the collector (share + fee), reserved, settled; the operator's fee stays there.
    const rows = await eventually(async () => {
      const r = await svc
        .db('ledger_entries as e')
        .join('ledger_journals as j', 'j.id', 'e.journal_id')
        .where('j.payment_id', p.id)
        .whereNot('j.kind', 'gas')
        .orderBy('e.id')
        .select('j.kind', 'e.owner', 'e.bucket', 'e.asset', 'e.holder', 'e.amount');
      if (!r.some((e) => e.kind === 'settled')) throw new Error(JSON.stringify(r));
      return r;
    });
    const of = (kind: string) => rows.filter((e) => e.kind === kind).map((e) => [e.owner, e.bucket, e.holder, e.amount]);
    expect(rows.every((e) => e.asset === ethAsset())).toBe(true);
    expect(of('collected')).toEqual([
      ['world', 'external', null, (-p.wei).toString()],
      [shop.accountId, 'available', p.collector, (p.wei - fee).toString()],
      ['operator', 'fees', p.collector, fee.toString()],
    ]);
    expect(of('settled')).toEqual([
      [shop.accountId, 'reserved', p.collector, (-(p.wei - fee)).toString()],
      ['world', 'external', null, (p.wei - fee).toString()],
    ]);
    const stored = await svc.db('chain_transactions').where({ payment_id: p.id, purpose: 'settle' }).first('value', 'calldata');
    expect(stored).toEqual({ value: (p.wei - fee).toString(), calldata: '0x' });
    // The check compares the collector's ETH with what the ledger says it holds for others and as fees (at least).
    const out = await ledgerClean();
    const eth = out.compared.find((c) => c.asset === ethAsset() && c.holder === p.collector);
    expect(eth).toMatchObject({ atLeast: true });
    expect(BigInt(eth!.ledger)).toBeGreaterThanOrEqual(fee);
    expect(BigInt(eth!.chain)).toBeGreaterThanOrEqual(BigInt(eth!.ledger));
    const r = await client(svc.url, { 'Api-Key': shop.apiKey, ...PREVIEW })('GET', '/v1/balance');
    expect(r.body.balances.find((b: { asset: string }) => b.asset === ethAsset())).toMatchObject({
      available: '0',
      reserved: '0',
      reserve: '0',
    });
    // The ledger export carries the coin's rows like a token's: in JSON and streamed as CSV.
    const range = `from=${encodeURIComponent('2000-01-01T00:00:00Z')}&to=${encodeURIComponent('2100-01-01T00:00:00Z')}`;
    const q = `/v1/reports/balance-transactions?${range}&limit=100`;
    const page = await client(svc.url, { 'Api-Key': shop.apiKey, ...PREVIEW })('GET', q);
    const mine = page.body.data.filter((x: { paymentId: string | null; asset: string }) => x.paymentId === p.id);
    expect(mine.map((x: { type: string; asset: string; amount: string }) => [x.type, x.asset, x.amount])).toEqual(
      expect.arrayContaining([
        ['collected', ethAsset(), (p.wei - fee).toString()],
        ['settled', ethAsset(), (-(p.wei - fee)).toString()],
      ]),
    );
    const csv = await fetch(`${svc.url}${q}`, { headers: { 'Api-Key': shop.apiKey, ...PREVIEW, Accept: 'text/csv' } });
    const text = await csv.text();
    expect(text.split('\n').filter((l) => l.includes(p.id) && l.includes(ethAsset()))).toHaveLength(mine.length);
  });

  it('the ledger check reports a collector holding less ETH than it owes (its gas funding spent past what was its own)', async () => {
    const shop = await ethShop(svc, 'ETH Short Shop', 'collector');
    await admin('accounts', 'set-reserve', '--account', shop.accountId, '--bps', '10000', '--window-minutes', '60');
    const p = await paidInEth(shop, '300', await newEthBuyer());
    const owed = await eventually(async () => {
      const c = (await ledgerClean()).compared.find((x) => x.asset === ethAsset() && x.holder === p.collector);
      if (!c || BigInt(c.ledger) < p.wei) throw new Error(JSON.stringify(c));
      return BigInt(c.ledger);
    });
    const had = await balance(p.collector);
    await anvil().setBalance({ address: p.collector, value: owed - 1n });
    try {
      await anvil().mine({ blocks: 1 });
      const check = await adminWith({}, 'ledger', 'check');
      expect(check.code).toBe(1);
      expect(check.out.differences).toEqual([
        expect.objectContaining({ asset: ethAsset(), holder: p.collector, ledger: owed.toString(), difference: '-1' }),
      ]);
    } finally {
      await anvil().setBalance({ address: p.collector, value: had });
      await anvil().mine({ blocks: 1 });
    }
    await ledgerClean();
  });

  it('a stuck ETH settlement is replaced at the same nonce with higher fees and the same value', async () => {
    const stuck = await startTestService({ CHAIN_STUCK_AFTER_MS: '1000' });
    try {
      const shop = await ethShop(stuck, 'ETH Stuck Shop', 'collector');
      const buyer = await newEthBuyer();
      const id = await shop.pay('400');
      const { opt } = await shop.ethOption(id, buyer);
      const [action] = (await shop.fetchActions(id, opt!.id)).body.actions;
      const hash = (await strictWallet(strictProvider(buyer).provider)(action.data)) as Hex;
      const merchantBefore = await balance(shop.wallet);
      await anvil().setAutomine(false);
      try {
        expect((await shop.confirm(id, opt!.id, [[hash]])).status).toBe(200);
        const first = await eventually(async () => {
          const t = await stuck.db('chain_transactions').where({ payment_id: id, purpose: 'settle' }).first();
          if (!t?.broadcast_at) throw new Error('not broadcast yet');
          return t;
        }, 30_000);
        expect(BigInt(first.value)).toBeGreaterThan(0n);
        await anvil().setNextBlockBaseFeePerGas({ baseFeePerGas: BigInt(first.max_fee_per_gas) * 2n });
        await anvil().mine({ blocks: 1 });
        const replaced = await eventually(async () => {
          const t = await stuck.db('chain_transactions').where({ id: first.id }).first();
          if (!t.previous_hashes.length || !t.broadcast_at) throw new Error('not replaced yet');
          return t;
        });
        expect({ nonce: replaced.nonce, value: replaced.value, calldata: replaced.calldata, cancelled: replaced.cancelled_at }).toEqual({
          nonce: first.nonce,
          value: first.value,
          calldata: '0x',
          cancelled: null,
        });
        const pending = await pub().getTransaction({ hash: replaced.tx_hash });
        expect(pending.value).toBe(BigInt(first.value));
        await anvil().mine({ blocks: 1 });
      } finally {
        await anvil().setAutomine(true);
      }
      const d = await eventually(async () => {
        const x = await shop.details(id);
        if (x.settlement?.successful === undefined) throw new Error(JSON.stringify(x));
        return x;
      }, 40_000);
      expect(BigInt(d.settlement.successful.amount.value)).toBe(BigInt(opt!.amount.value)); // no fee on this account
      expect((await balance(shop.wallet)) - merchantBefore).toBe(BigInt(opt!.amount.value));
    } finally {
      await stuck.close();
    }
  });

  it('a full refund of an ETH payment sends the coin back to the buyer from the collector', async () => {
    const shop = await ethShop(svc, 'ETH Refund Shop', 'collector');
    // All of the share stays at the collector (the refund reserve), so the refund is covered without funding.
    await admin('accounts', 'set-reserve', '--account', shop.accountId, '--bps', '10000', '--window-minutes', '60');
    const buyer = await newEthBuyer();
    const p = await paidInEth(shop, '500', buyer);
    const preview = client(svc.url, { 'Api-Key': shop.apiKey, 'Merchant-Id': shop.merchantId, ...PREVIEW });
    await eventually(async () => {
      const b = await preview('GET', '/v1/balance');
      expect(b.body.balances.find((x: { asset: string }) => x.asset === ethAsset())).toMatchObject({ reserve: p.wei.toString() });
    });
    const buyerBefore = await balance(buyer.address);
    const r = await preview('POST', '/v1/refunds', { body: { paymentId: p.id } });
    expect(r.status).toBe(200);
    expect(r.body.refund).toMatchObject({ paymentId: p.id, status: 'pending' });
    expect(r.body.refund.tokenAmount).toEqual({ unit: `caip19/${ethAsset()}`, value: p.wei.toString() });
    const done = await eventually(async () => {
      const x = await preview('GET', `/v1/refunds/${r.body.refund.id}`);
      if (x.body.refund?.status !== 'succeeded') throw new Error(x.text);
      return x.body.refund;
    }, 30_000);
    expect((await balance(buyer.address)) - buyerBefore).toBe(p.wei);
    const sent = await pub().getTransaction({ hash: done.txId });
    expect({ from: getAddress(sent.from), to: getAddress(sent.to!), value: sent.value, input: sent.input }).toEqual({
      from: p.collector,
      to: buyer.address,
      value: p.wei,
      input: '0x',
    });
    await eventually(async () => {
      const b = await preview('GET', '/v1/balance');
      expect(b.body.balances.find((x: { asset: string }) => x.asset === ethAsset())).toMatchObject({ reserve: '0', reserved: '0' });
    });
    await ledgerClean();
  });

  it('an account on a schedule settles its ETH payments in one transfer carrying their shares', async () => {
    const shop = await ethShop(svc, 'ETH Scheduled Shop', 'collector');
    await admin('accounts', 'set-settlement-schedule', '--account', shop.accountId, '--every-minutes', '44640');
    const merchantBefore = await balance(shop.wallet);
    const a = await paidInEth(shop, '200', await newEthBuyer());
    const b = await paidInEth(shop, '300', await newEthBuyer());
    expect((await shop.details(a.id)).settlement?.successful).toBeUndefined();
    expect(b.collector).toBe(a.collector);
    // Both collected over a slot (2 s) ago: both belong to the slot that begins next.
    await eventually(async () => {
      const { rows } = await svc.db.raw(
        `SELECT count(*)::int AS n FROM ledger_journals WHERE ref = ANY(?::text[]) AND created_at < now() - interval '2.1 second'`,
        [[a.id, b.id].map((id) => `collected:${id}`)],
      );
      if (rows[0].n !== 2) throw new Error('collected in this slot');
    });
    await admin('accounts', 'set-settlement-schedule', '--account', shop.accountId, '--every-minutes', '2');
    const settled = await Promise.all(
      [a.id, b.id].map((id) =>
        eventually(async () => {
          const x = await shop.details(id);
          if (x.settlement?.successful === undefined) throw new Error(JSON.stringify(x));
          return x.settlement.successful;
        }, 40_000),
      ),
    );
    expect(settled[0].txId).toBe(settled[1].txId);
    expect(settled.map((x) => BigInt(x.amount.value))).toEqual([a.wei, b.wei]);
    const batch = await pub().getTransaction({ hash: settled[0].txId });
    expect({ to: getAddress(batch.to!), value: batch.value, input: batch.input }).toEqual({
      to: getAddress(shop.wallet),
      value: a.wei + b.wei,
      input: '0x',
    });
    await eventually(async () => expect((await balance(shop.wallet)) - merchantBefore).toBe(a.wei + b.wei), 30_000);
    await ledgerClean();
  });

  it.each(['collector', 'direct'] as const)(
    'a full refund with nothing at a collector (%s mode) waits for funding in ETH, then goes out',
    async (mode) => {
      const shop = await ethShop(svc, `ETH Funding Shop (${mode})`, mode);
      const buyer = await newEthBuyer();
      const p = await paidInEth(shop, '250', buyer);
      if (mode === 'direct')
        expect(p.collector).toBe(getAddress(shop.wallet)); // the merchant holds the coin
      else
        await eventually(async () => {
          if ((await shop.details(p.id)).settlement?.successful === undefined) throw new Error('not settled yet');
        }, 40_000);
      const preview = client(svc.url, { 'Api-Key': shop.apiKey, 'Merchant-Id': shop.merchantId, ...PREVIEW });
      const r = await preview('POST', '/v1/refunds', { body: { paymentId: p.id } });
      expect(r.status).toBe(200);
      expect(r.body.refund.status).toBe('requires_funding');
      const fundingId = r.body.refund.fundingInstructions.paymentId as string;
      // What is missing converts at the refunded payment's own rate (ETH pegs to nothing): the whole USD 2.50.
      expect((await shop.asMerchant('GET', `/v1/payments/${fundingId}`)).body.amount).toEqual({ unit: 'iso4217/USD', value: '250' });
      const payer = await newEthBuyer();
      const { all, opt } = await shop.ethOption(fundingId, payer);
      expect(all.map((o) => o.amount.unit)).toEqual([`caip19/${ethAsset()}`]); // the refund's asset only
      const [action] = (await shop.fetchActions(fundingId, opt!.id)).body.actions;
      const hash = await strictWallet(strictProvider(payer).provider)(action.data);
      const buyerBefore = await balance(buyer.address);
      expect((await shop.confirm(fundingId, opt!.id, [[hash]])).status).toBe(200);
      const done = await eventually(async () => {
        const x = await preview('GET', `/v1/refunds/${r.body.refund.id}`);
        if (x.body.refund?.status !== 'succeeded') throw new Error(x.text);
        return x.body.refund;
      }, 40_000);
      expect((await balance(buyer.address)) - buyerBefore).toBe(p.wei);
      expect((await pub().getTransaction({ hash: done.txId })).value).toBe(p.wei);
      await ledgerClean();
    },
  );
});
