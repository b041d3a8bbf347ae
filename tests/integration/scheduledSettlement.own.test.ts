import { getAddress, parseAbiItem, parseEventLogs } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { anvil, balanceOf, DEVNET_USDC, newBuyer, newWallet, receiptOf, tokenAdmin, USDC_TOKEN } from '../support/chain';
import { eventually, flow, setup, useChainSuite } from '../support/chainSuite';
import { uniqueKey } from '../support/fixtures';
import { admin, adminWith, client, startTestService, TestService } from '../support/service';
import { startReceiver, type Receiver } from '../support/webhookReceiver';

// Settlement on a schedule (docs/ledger.md) on the development chain: an account settling every N minutes (a minute
// is SETTLEMENT_SCHEDULE_UNIT_MS here) sends each merchant's shares in one transfer per destination at the slot's
// start, every payment shows that transfer and gets its payment.settled webhook, the ledger reserves and settles the
// batch and `admin ledger check` stays clean; an account settling at once is not affected; a batch that reverts
// releases its reservation and its payments go in a later slot. Two service processes look for due batches: one
// batch per slot all the same.

useChainSuite();

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
/** A schedule's slot longer than any test here (44640 "minutes" of 1 s): nothing settles until it is shortened. */
const LONG = '44640';

describe('settlement on a schedule', () => {
  let svc: TestService;
  let svc2: TestService;
  let rx: Receiver;
  beforeAll(async () => {
    // Two service processes' workers on one database and relayer key: each looks for due batches at every tick.
    const env = { SETTLEMENT_SCHEDULE_UNIT_MS: '1000', SETTLEMENT_RETRY_BASE_MS: '200', DEVNET_RELAYER_KEYS: generatePrivateKey() };
    svc = await startTestService(env);
    svc2 = await startTestService(env);
    rx = await startReceiver();
  });
  afterAll(async () => {
    await anvil().setAutomine(true);
    await rx.close();
    await svc2.close();
    await svc.close();
  });

  /** A scheduled account's shop, and a second merchant of the same account with its own destination. */
  async function scheduledShop() {
    const s = await setup(svc);
    const f = flow(svc.url, s.shop, s.gw);
    await admin('accounts', 'set-fee', '--account', s.shop.accountId, '--base-minor', '10', '--percent', '0');
    expect(await admin('accounts', 'set-settlement-schedule', '--account', s.shop.accountId, '--every-minutes', LONG)).toEqual({
      accountId: s.shop.accountId,
      settlementEveryMinutes: Number(LONG),
    });
    return { ...s, f };
  }
  const schedule = (accountId: string, every: string) =>
    admin('accounts', 'set-settlement-schedule', '--account', accountId, '--every-minutes', every);
  const paid = async (f: ReturnType<typeof flow>, value: string) => {
    const buyer = await newBuyer(100_000_000n);
    const id = await f.pay(value);
    const { opt, td } = await f.option(id, buyer);
    expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).status).toBe(200);
    return id;
  };
  /** Every payment collected (in the ledger) over a second ago: all of them belong to the slot that begins next. */
  const collectedBeforeThisSlot = (ids: string[]) =>
    eventually(async () => {
      const { rows } = await svc.db.raw(
        `SELECT count(*)::int AS n FROM ledger_journals WHERE ref = ANY(?::text[]) AND created_at < now() - interval '1.1 second'`,
        [ids.map((id) => `collected:${id}`)],
      );
      if (rows[0].n !== ids.length) throw new Error(`${rows[0].n} of ${ids.length} collected a slot ago`);
    });
  const balance = async (apiKey: string) => (await client(svc.url, { 'Api-Key': apiKey, ...PREVIEW })('GET', '/v1/balance')).body.balances;
  const transfersIn = async (hash: string) =>
    parseEventLogs({ abi: [TRANSFER], logs: (await receiptOf(hash)).logs }).map((l) => ({
      token: getAddress(l.address),
      from: getAddress(l.args.from),
      to: getAddress(l.args.to),
      value: l.args.value,
    }));

  it('a merchant’s payments go in one transfer per destination; each shows it and is webhooked; the books stay clean', async () => {
    const s = await scheduledShop();
    const hook = await s.shop.api('POST', '/v1/webhook-endpoints', {
      body: { url: rx.url, enabledEvents: ['payment.settled'] },
      headers: { 'Idempotency-Key': uniqueKey(), ...PREVIEW },
    });
    expect(hook.status).toBe(201);
    // A second merchant of the account, settling to a destination of its own.
    const other = await s.shop.api('POST', '/v1/merchants', {
      body: { merchantName: 'Second Shop', merchantEmail: 'm2@x.io' },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    const otherWallet = newWallet();
    expect(
      (
        await s.shop.api('POST', `/v1/merchants/${other.body.merchant.id}/settlements/crypto`, {
          body: { settlements: [{ asset: DEVNET_USDC, destination: `eip155:31337:${otherWallet}` }] },
          headers: { 'Idempotency-Key': uniqueKey() },
        })
      ).status,
    ).toBe(201);
    const fOther = flow(
      svc.url,
      { ...s.shop, asMerchant: client(svc.url, { 'Api-Key': s.shop.apiKey, 'Merchant-Id': other.body.merchant.id }) },
      s.gw,
    );
    // An account that settles at once, beside it.
    const now = await setup(svc);
    const fNow = flow(svc.url, now.shop, now.gw);

    // USD 10.00, 5.00 and 2.50 to the first merchant, 4.00 to the second; fee USD 0.10 each.
    const ids = await Promise.all([paid(s.f, '1000'), paid(s.f, '500'), paid(s.f, '250')]);
    const [otherId, immediateId] = await Promise.all([paid(fOther, '400'), paid(fNow, '300')]);
    const all = [...ids, otherId];
    const flowOf = (id: string) => (id === otherId ? fOther : s.f);
    for (const id of all) await flowOf(id).until(id, (d) => d.status === 'succeeded');
    const immediate = await fNow.until(immediateId, (d) => d.settlement?.successful !== undefined, 40_000);
    expect(await balanceOf(now.shop.wallet)).toBe(3_000_000n);
    expect(await transfersIn(immediate.settlement.successful.txId)).toHaveLength(1);
    // Scheduled: collected and available, nothing sent.
    for (const id of all) expect((await flowOf(id).details(id)).settlement).toBeNull();
    expect(await balance(s.shop.apiKey)).toEqual([
      { asset: DEVNET_USDC, available: '21100000', pending: '0', reserved: '0', reserve: '0' },
    ]);
    expect(await balanceOf(s.shop.wallet)).toBe(0n);

    await collectedBeforeThisSlot(all);
    await schedule(s.shop.accountId, '1');
    const settled = await Promise.all(all.map((id) => flowOf(id).until(id, (d) => d.settlement?.successful !== undefined, 40_000)));
    const [a, b, c, d] = settled.map((x) => x.settlement.successful);
    // One transaction per destination: the first merchant's three payments share one, the second's has its own.
    expect(new Set([a.txId, b.txId, c.txId]).size).toBe(1);
    expect(d.txId).not.toBe(a.txId);
    expect([a, b, c, d].map((x) => x.amount.value)).toEqual(['9900000', '4900000', '2400000', '3900000']);
    const collector = getAddress((await svc.db('chain_transactions').where({ tx_hash: a.txId }).first()).sender);
    expect(await transfersIn(a.txId)).toEqual([
      { token: getAddress(USDC_TOKEN), from: collector, to: getAddress(s.shop.wallet), value: 17_200_000n },
    ]);
    expect(await transfersIn(d.txId)).toEqual([{ token: getAddress(USDC_TOKEN), from: collector, to: otherWallet, value: 3_900_000n }]);
    expect(await balanceOf(s.shop.wallet)).toBe(17_200_000n);
    expect(await balanceOf(otherWallet)).toBe(3_900_000n);
    const batches = await svc.db('settlement_batches').where({ account_id: s.shop.accountId }).orderBy('amount', 'desc');
    expect(batches.map((x) => [x.amount, x.released_at])).toEqual([
      ['17200000', null],
      ['3900000', null],
    ]);

    // One payment.settled webhook per payment.
    const got = await rx.until((r) => all.every((id) => r.some((x) => x.body?.data?.payment?.paymentId === id)));
    const hooks = got.filter((r) => all.includes(r.body?.data?.payment?.paymentId));
    expect(hooks.map((r) => r.body.type)).toEqual(['payment.settled', 'payment.settled', 'payment.settled', 'payment.settled']);
    expect(hooks.map((r) => r.body.data.payment.paymentId).sort()).toEqual([...all].sort());

    // The ledger: each payment's share of its batch reserved, then settled, in a journal of its own naming the
    // payment; the export's rows of them too (the transfer stays one per batch).
    const journals = await svc
      .db('ledger_journals')
      .where({ account_id: s.shop.accountId })
      .whereIn('kind', ['settle_reserved', 'settled'])
      .select('kind', 'payment_id', 'tx_hash');
    expect(journals.map((j) => `${j.kind} ${j.payment_id}`).sort()).toEqual(
      ['settle_reserved', 'settled'].flatMap((k) => all.map((id) => `${k} ${id}`)).sort(),
    );
    expect(new Set(journals.filter((j) => j.kind === 'settled').map((j) => j.tx_hash))).toEqual(new Set([a.txId, d.txId]));
    const range = `from=${encodeURIComponent('2000-01-01T00:00:00Z')}&to=${encodeURIComponent('2100-01-01T00:00:00Z')}`;
    const report = await client(svc.url, { 'Api-Key': s.shop.apiKey, ...PREVIEW })(
      'GET',
      `/v1/reports/balance-transactions?${range}&limit=1000`,
    );
    const rows = (report.body.data as { type: string; bucket: string; amount: string; paymentId: string | null }[]).filter((r) =>
      ['settle_reserved', 'settled'].includes(r.type),
    );
    expect(rows.filter((r) => !all.includes(r.paymentId!))).toEqual([]);
    const sentOf = (id: string) =>
      rows.filter((r) => r.paymentId === id && r.type === 'settled' && r.bucket === 'reserved').reduce((n, r) => n - BigInt(r.amount), 0n);
    expect(all.map(sentOf)).toEqual([9_900_000n, 4_900_000n, 2_400_000n, 3_900_000n]);
    expect(await balance(s.shop.apiKey)).toEqual([{ asset: DEVNET_USDC, available: '0', pending: '0', reserved: '0', reserve: '0' }]);
    const check = await adminWith({}, 'ledger', 'check');
    expect({ code: check.code, differences: check.out.differences }).toEqual({ code: 0, differences: [] });
  });

  it('a batch that reverts releases its reservation; its payments settle in a later slot, once', async () => {
    const s = await scheduledShop();
    const ids = await Promise.all([paid(s.f, '600'), paid(s.f, '400')]);
    for (const id of ids) await s.f.until(id, (d) => d.status === 'succeeded');
    await collectedBeforeThisSlot(ids);
    await anvil().setAutomine(false);
    await schedule(s.shop.accountId, '1');
    const sent = () =>
      svc.db('settlement_batches as b').join('chain_transactions as c', 'c.id', 'b.chain_tx_id').where('b.account_id', s.shop.accountId);
    await eventually(async () => {
      const [first] = await sent().whereNotNull('c.broadcast_at');
      if (!first) throw new Error('no batch broadcast yet');
    });
    expect(await balance(s.shop.apiKey)).toEqual([{ asset: DEVNET_USDC, available: '0', pending: '0', reserved: '9800000', reserve: '0' }]);
    await tokenAdmin('pause');
    await anvil().mine({ blocks: 1 }); // the pause, then the batch: reverted
    await tokenAdmin('unpause');
    await anvil().mine({ blocks: 1 });
    await anvil().setAutomine(true);

    // The reverted batch counted as a failed attempt of each payment (details show `settlement.pending`) until a later
    // slot's batch settles them.
    const settled = await Promise.all(ids.map((id) => s.f.until(id, (d) => d.settlement?.successful !== undefined, 30_000)));
    const rows = await sent().orderBy('c.id').select('c.status', 'c.tx_hash', 'b.released_at', 'b.amount');
    expect(rows.map((r) => [r.status, r.released_at !== null, r.amount])).toEqual([
      ['reverted', true, '9800000'],
      ['confirmed', false, '9800000'],
    ]);
    expect(settled.map((x) => x.settlement.successful.txId)).toEqual([rows[1].tx_hash, rows[1].tx_hash]);
    expect(await balanceOf(s.shop.wallet)).toBe(9_800_000n);
    const kinds = await svc
      .db('ledger_journals')
      .where({ account_id: s.shop.accountId })
      .whereIn('kind', ['settle_reserved', 'settle_released', 'settled'])
      .orderBy('id')
      .pluck('kind');
    expect(kinds).toEqual([
      'settle_reserved',
      'settle_reserved',
      'settle_released',
      'settle_released',
      'settle_reserved',
      'settle_reserved',
      'settled',
      'settled',
    ]);
    expect(await svc.db('payment_events').whereIn('payment_id', ids).where({ type: 'payment.settled' })).toHaveLength(2);
    const check = await adminWith({}, 'ledger', 'check');
    expect({ code: check.code, differences: check.out.differences }).toEqual({ code: 0, differences: [] });
  });

  it('set-settlement-schedule refuses what is not a whole number of minutes from 0 to 44640', async () => {
    const s = await setup(svc);
    for (const bad of ['44641']) {
      const r = await adminWith({}, 'accounts', 'set-settlement-schedule', '--account', s.shop.accountId, '--every-minutes', bad);
      expect(r.code).toBe(2);
    }
    const missing = await adminWith({}, 'accounts', 'set-settlement-schedule', '--account', 'acct_missing', '--every-minutes', '5');
    expect(missing.code).toBe(1);
  });
});
