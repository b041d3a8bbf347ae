import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { anvil, balanceOf, DEVNET_USDC, fund, newBuyer, receiptOf, tokenAdmin } from '../support/chain';
import { eventually, flow, setup, Shop, useChainSuite } from '../support/chainSuite';
import { admin, adminWith, client, startTestService, TestService } from '../support/service';

// The ledger (docs/ledger.md) on the development chain: what a payment, its fee, its settlement and the relayer's gas
// record; balances through GET /v1/balance and the admin command; `admin ledger check` against balanceOf.

useChainSuite();

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };

describe('the ledger', () => {
  let svc: TestService;
  let f: ReturnType<typeof flow>;
  let shop: Shop;
  const entriesOf = (paymentId: string) =>
    svc
      .db('ledger_entries as e')
      .join('ledger_journals as j', 'j.id', 'e.journal_id')
      .where('j.payment_id', paymentId)
      .orderBy('e.id')
      .select('j.kind', 'j.tx_hash', 'e.owner', 'e.bucket', 'e.asset', 'e.holder', 'e.amount');
  const balance = async () => {
    const r = await client(svc.url, { 'Api-Key': shop.apiKey, ...PREVIEW })('GET', '/v1/balance');
    expect(r.status).toBe(200);
    return r.body.balances as { asset: string; available: string; pending: string; reserved: string }[];
  };
  const paid = async (value: string) => {
    const buyer = await newBuyer(100_000_000n);
    const id = await f.pay(value);
    const { opt, td } = await f.option(id, buyer);
    expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).status).toBe(200);
    return { id, buyer, collector: td.message.to as string };
  };

  beforeAll(async () => {
    svc = await startTestService();
    const s = await setup(svc);
    shop = s.shop;
    f = flow(svc.url, shop, s.gw);
    await admin('accounts', 'set-fee', '--account', shop.accountId, '--base-minor', '10', '--percent', '0');
  });
  afterAll(() => svc.close());

  it('a settled payment: collected (share + fee), reserved, settled, and each transaction’s gas, every journal balanced', async () => {
    const { id, collector } = await paid('1000'); // USD 10.00, fee USD 0.10
    const d = await f.until(id, (x) => x.settlement?.successful !== undefined, 40_000);
    const rows = await eventually(async () => {
      const r = await entriesOf(id);
      if (!r.some((e) => e.kind === 'settled') || r.filter((e) => e.kind === 'gas').length < 4) throw new Error(JSON.stringify(r));
      return r;
    });
    const share = (kind: string) => rows.filter((e) => e.kind === kind).map((e) => [e.owner, e.bucket, e.holder, e.amount]);
    expect(share('collected')).toEqual([
      ['world', 'external', null, '-10000000'],
      [shop.accountId, 'available', collector, '9900000'],
      ['operator', 'fees', collector, '100000'],
    ]);
    expect(share('settle_reserved')).toEqual([
      [shop.accountId, 'available', collector, '-9900000'],
      [shop.accountId, 'reserved', collector, '9900000'],
    ]);
    expect(share('settled')).toEqual([
      [shop.accountId, 'reserved', collector, '-9900000'],
      ['world', 'external', null, '9900000'],
    ]);
    // Gas per transaction: what its receipt says it cost, from the relayer key's native coin.
    for (const hash of [d.info.txId, d.settlement.successful.txId]) {
      const r = await receiptOf(hash);
      const gas = rows.filter((e) => e.kind === 'gas' && e.tx_hash === hash);
      expect(gas.map((e) => [e.owner, e.bucket, e.asset, e.amount])).toEqual([
        ['operator', 'native', 'eip155:31337/slip44:60', (-(r.gasUsed * r.effectiveGasPrice)).toString()],
        ['operator', 'gas', 'eip155:31337/slip44:60', (r.gasUsed * r.effectiveGasPrice).toString()],
      ]);
    }
    expect(await balance()).toEqual([{ asset: DEVNET_USDC, available: '0', pending: '0', reserved: '0', reserve: '0' }]);
    expect(await admin('ledger', 'balance', '--account', shop.accountId)).toEqual({ balances: await balance() });
    // The collector holds exactly the fee; the ledger says so too.
    expect(await balanceOf(collector)).toBe(100_000n);
    const check = await adminWith({}, 'ledger', 'check');
    expect({ code: check.code, differences: check.out.differences }).toEqual({ code: 0, differences: [] });
    expect(check.out.chains.map((c: { unrecorded: unknown[] }) => c.unrecorded)).toEqual([[], []]);
    // How long the check may wait for the service to record what is mined: whole seconds, 0 to 600.
    for (const wait of ['soon', '-1', '601', '1.5']) {
      const usage = await adminWith({}, 'ledger', 'check', `--wait=${wait}`);
      expect({ code: usage.code, stderr: JSON.parse(usage.stderr) }).toEqual({
        code: 2,
        stderr: { error: '--wait must be whole seconds, 0 to 600' },
      });
    }
  });

  it('PostgreSQL refuses a journal that does not balance, and any change to the ledger', async () => {
    const unbalanced = svc.db.transaction(async (trx) => {
      const [j] = await trx('ledger_journals')
        .insert({ ref: `test:${Date.now()}`, kind: 'gas' })
        .returning('id');
      await trx('ledger_entries').insert({ journal_id: j.id, owner: 'operator', bucket: 'gas', asset: DEVNET_USDC, amount: '5' });
    });
    await expect(unbalanced).rejects.toMatchObject({ code: '23514' });
    await expect(svc.db('ledger_entries').update({ amount: '1' })).rejects.toMatchObject({ code: '42501' });
    await expect(svc.db('ledger_journals').del()).rejects.toMatchObject({ code: '42501' });
  });

  it('a settlement the token refuses leaves the share available; the check reports tokens the ledger does not account for', async () => {
    const mined = async (hash: Promise<string>) => {
      const h = await hash;
      await eventually(() => receiptOf(h));
    };
    await mined(tokenAdmin('blacklist', shop.wallet as `0x${string}`));
    try {
      const { id, collector } = await paid('500'); // USD 5.00: 4.90 the account's, 0.10 the operator's
      await f.until(id, (x) => x.status === 'succeeded');
      expect(await balance()).toEqual([{ asset: DEVNET_USDC, available: '4900000', pending: '0', reserved: '0', reserve: '0' }]);
      expect((await adminWith({}, 'ledger', 'check')).code).toBe(0);

      await fund(collector, 1234n); // tokens sent to a collector outside any payment
      const check = await adminWith({}, 'ledger', 'check');
      expect(check.code).toBe(1);
      const [diff] = check.out.differences;
      expect(check.out.differences).toHaveLength(1);
      expect(diff).toMatchObject({ chainId: 'eip155:31337', asset: DEVNET_USDC, holder: collector, difference: '1234' });
      expect(diff.accounts).toEqual(
        expect.arrayContaining([
          { owner: shop.accountId, bucket: 'available', amount: '4900000' },
          { owner: 'operator', bucket: 'fees', amount: expect.any(String) },
        ]),
      );
    } finally {
      await mined(tokenAdmin('unBlacklist', shop.wallet as `0x${string}`));
    }
  });

  it('the balance transactions export (JSON pages and the admin CSV) sums to GET /v1/balance', async () => {
    const range = `from=${encodeURIComponent('2000-01-01T00:00:00Z')}&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`;
    const sums = (list: { asset: string; bucket: string; amount: string }[]) => {
      const by = new Map<string, bigint>();
      for (const r of list) by.set(`${r.asset} ${r.bucket}`, (by.get(`${r.asset} ${r.bucket}`) ?? 0n) + BigInt(r.amount));
      return by;
    };
    // A refund's funding (bucket `funding`) counts as reserved in the balance.
    const totals = (by: Map<string, bigint>, asset: string) => [
      by.get(`${asset} available`) ?? 0n,
      by.get(`${asset} pending`) ?? 0n,
      (by.get(`${asset} reserved`) ?? 0n) + (by.get(`${asset} funding`) ?? 0n),
    ];
    // Read again until the JSON pages, the balance and the admin CSV agree: a settlement of an earlier test may still
    // add entries between the reads.
    const { rows, cols, header } = await eventually(async () => {
      const rows: { asset: string; bucket: string; amount: string; type: string; paymentId: string | null }[] = [];
      let cursor: string | null = null;
      do {
        const q: string = `/v1/reports/balance-transactions?${range}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page = await client(svc.url, { 'Api-Key': shop.apiKey, ...PREVIEW })('GET', q);
        expect(page.status).toBe(200);
        rows.push(...page.body.data);
        cursor = page.body.nextCursor;
      } while (cursor);
      const [b] = await balance();
      const json = sums(rows);
      expect(totals(json, b.asset)).toEqual([BigInt(b.available), BigInt(b.pending), BigInt(b.reserved)]);
      expect(rows.filter((r) => r.type === 'collected').every((r) => r.paymentId?.startsWith('pay_'))).toBe(true);

      const file = path.join(os.tmpdir(), `paygate-btx-${Date.now()}.csv`);
      const from = '2000-01-01T00:00:00Z';
      const out = await admin(
        'report',
        'balance-transactions',
        '--account',
        shop.accountId,
        '--from',
        from,
        '--to',
        new Date(Date.now() + 60_000).toISOString(),
        '--format',
        'csv',
        '--out',
        file,
      );
      const [header, ...lines] = fs.readFileSync(file, 'utf8').trim().split('\n');
      fs.rmSync(file);
      expect(out).toEqual({ rows: rows.length, file });
      const cols = header.split(',');
      const csv = lines.map(
        (l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])) as { asset: string; bucket: string; amount: string },
      );
      expect(sums(csv)).toEqual(json);
      return { rows, cols, header };
    }, 30_000);

    // The same rows from the API as CSV, streamed: its totals per asset are GET /v1/balance's.
    const get = (q: string, accept: string) =>
      fetch(`${svc.url}/v1/reports/balance-transactions?${q}`, { headers: { 'Api-Key': shop.apiKey, ...PREVIEW, Accept: accept } });
    // (Tried again while a settlement of an earlier test still moves the balance between the two reads.)
    await eventually(async () => {
      const res = await get(`${range}&limit=1`, 'text/csv');
      expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status: 200, type: 'text/csv; charset=utf-8' });
      const [apiHeader, ...apiLines] = (await res.text()).trim().split('\n');
      expect(apiHeader).toBe(header);
      const api = apiLines.map(
        (l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])) as { asset: string; bucket: string; amount: string },
      );
      expect(api.length).toBeGreaterThanOrEqual(rows.length);
      const balances = await balance();
      for (const x of balances) expect(totals(sums(api), x.asset)).toEqual([BigInt(x.available), BigInt(x.pending), BigInt(x.reserved)]);
      expect(new Set(api.map((r) => r.asset))).toEqual(new Set(balances.map((x) => x.asset)));
    }, 20_000);
    // JSON unless CSV comes first; a bad range is a 400 with the error body, before anything is streamed.
    expect((await get(range, 'application/json, text/csv')).headers.get('content-type')).toMatch(/^application\/json/);
    const bad = await get('from=yesterday&to=today', 'text/csv');
    expect({ status: bad.status, code: ((await bad.json()) as { code: string }).code }).toEqual({ status: 400, code: 'params_validation' });
  });

  it('a cursor past the largest entry id is a 400 params_validation (was a 500)', async () => {
    const range = `from=${encodeURIComponent('2000-01-01T00:00:00Z')}&to=${encodeURIComponent('2100-01-01T00:00:00Z')}`;
    const get = (id: string) =>
      client(svc.url, { 'Api-Key': shop.apiKey, ...PREVIEW })(
        'GET',
        `/v1/reports/balance-transactions?${range}&cursor=${Buffer.from(JSON.stringify({ id })).toString('base64url')}`,
      );
    for (const id of ['9999999999999999999', '9223372036854775808']) {
      const res = await get(id);
      expect({ status: res.status, code: res.body.code, field: res.body.issues?.[0]?.field }).toEqual({
        status: 400,
        code: 'params_validation',
        field: 'cursor',
      });
    }
    // The largest id PostgreSQL's bigint holds is still a cursor: an empty page.
    const ok = await get('9223372036854775807');
    expect({ status: ok.status, data: ok.body.data, next: ok.body.nextCursor }).toEqual({ status: 200, data: [], next: null });
  });
});

describe('the ledger before confirmation depth (3 blocks)', () => {
  let svc: TestService;
  let f: ReturnType<typeof flow>;
  let shop: Shop;
  beforeAll(async () => {
    svc = await startTestService({ DEVNET_CONFIRMATIONS: '3' });
    const s = await setup(svc);
    shop = s.shop;
    f = flow(svc.url, shop, s.gw);
  });
  afterAll(() => svc.close());

  it('a collect mined but not final is pending; at depth it becomes available; the check agrees at every step', async () => {
    const buyer = await newBuyer(10_000_000n);
    const id = await f.pay('300');
    const { opt, td } = await f.option(id, buyer);
    expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).status).toBe(200);
    const balance = () => client(svc.url, { 'Api-Key': shop.apiKey, ...PREVIEW })('GET', '/v1/balance').then((r) => r.body.balances);
    await eventually(async () =>
      expect(await balance()).toEqual([{ asset: DEVNET_USDC, available: '0', pending: '3000000', reserved: '0', reserve: '0' }]),
    );
    expect((await f.details(id)).status).toBe('processing');
    // The chain holds the tokens at the head, not yet at the depth block; the ledger counts the pending collect at its
    // block. (The collector of this file's other service has a forced difference: only this one's is looked at.)
    const check = async () =>
      (await adminWith({ DEVNET_CONFIRMATIONS: '3' }, 'ledger', 'check')).out.differences.filter(
        (d: { holder: string }) => d.holder === td.message.to,
      );
    expect(await check()).toEqual([]);
    await anvil().mine({ blocks: 2 });
    await f.until(id, (x) => x.status === 'succeeded');
    const after = await balance();
    expect(after[0].pending).toBe('0');
    const kinds = (await svc.db('ledger_journals').where({ payment_id: id }).orderBy('id')).map((j) => j.kind);
    expect(kinds.filter((k) => k !== 'gas').slice(0, 3)).toEqual(['collect_pending', 'collect_unpending', 'collected']);
    expect(await check()).toEqual([]);
  });
});
