import { client } from '../support/service';
import { devnetAssetId } from '../../src/chain/devnet';
import { DEVNET2_CHAIN_ID } from '../support/chain';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { paySucceeded, svc, usd, usePaymentsSuite } from '../support/paymentsSuite';

// Issue 45: the payment lists take the hosted service's query forms (ISO 8601 times, a comma-separated `network`,
// repeated `merchantId`/`token_symbol`/`status`, `sortBy=date`) besides ours, at both versions, and answer with the
// hosted contract's types: revenue a JSON number in the currency's major unit, written exactly; `settledAt` absent
// until settled; on the deprecated path an integer `fiat_amount`, a string `wallet_name`, a number revenue.

usePaymentsSuite();

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
const VERSIONS: [string, Record<string, string>][] = [
  ['2026-02-18', {}],
  ['2026-02-19.preview', PREVIEW],
];
type Item = { paymentId?: string; payment_id?: string };
const idsOf = (body: { data: Item[] }) => body.data.map((p) => p.paymentId ?? p.payment_id);
/** `iso` (UTC) written as the local time at an offset of `hours` (2026-01-06T05:00:00.000+05:00 for 00:00Z). */
const at = (iso: string, hours: number) => {
  const local = new Date(Date.parse(iso) + hours * 3_600_000).toISOString().slice(0, -1);
  const sign = hours < 0 ? '-' : '+';
  return `${local}${sign}${String(Math.abs(hours)).padStart(2, '0')}:00`;
};

describe('payment lists in the hosted forms', () => {
  let shop: Awaited<ReturnType<typeof merchantWithSettlement>>;
  let second: string;
  /** USD 40.50 and USD 10.00 of the shop's merchant, paid; USD 9.99 of the second merchant, unpaid. */
  let paid1: string, paid2: string, unpaid: string;
  let before: string;
  beforeAll(async () => {
    before = new Date(Date.now() - 60_000).toISOString();
    shop = await merchantWithSettlement(svc, 'Hosted lists');
    const s2 = await shop.api('POST', '/v1/merchants', {
      body: { merchantName: 'Hosted second', merchantEmail: 's@x.io' },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    second = s2.body.merchant.id;
    await shop.api('POST', `/v1/merchants/${second}/settlements/crypto`, {
      body: {
        settlements: [
          {
            asset: devnetAssetId('USDC', DEVNET2_CHAIN_ID),
            destination: `eip155:${DEVNET2_CHAIN_ID}:0x52908400098527886E0F7030069857D2E4169EE7`,
          },
        ],
      },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    const create = async (c: typeof shop.asMerchant, value: string) => {
      const r = await c('POST', '/v1/payments', { body: { referenceId: uniqueKey('hosted'), amount: usd(value) } });
      if (r.status !== 201) throw new Error(r.text);
      return r.body.paymentId as string;
    };
    paid1 = await create(shop.asMerchant, '4050');
    paid2 = await create(shop.asMerchant, '1000');
    unpaid = await create(client(svc.url, { 'Api-Key': shop.apiKey, 'Merchant-Id': second }), '999');
    await paySucceeded(paid1, shop.accountId);
    await paySucceeded(paid2, shop.accountId);
  }, 90_000); // two payments paid on chain: slow on a busy machine

  const as = (headers: Record<string, string>) => client(svc.url, { 'Api-Key': shop.apiKey, ...headers });

  it.each(VERSIONS)('GET /v1/payments and /v1/merchants/payments take the hosted query forms (%s)', async (_v, version) => {
    const partner = as(version);
    const merchant = as({ ...version, 'Merchant-Id': shop.merchantId });
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const all = [paid1, paid2, unpaid].sort();
    const sorted = (r: { body: { data: Item[] } }) => idsOf(r.body).sort();
    const list = async (c: typeof partner, path: string, qs: string) => {
      const r = await c('GET', `${path}?${qs}`);
      expect([qs, r.status]).toEqual([qs, 200]);
      return r;
    };
    for (const [c, path, mine] of [
      [partner, '/v1/payments', all],
      [merchant, '/v1/merchants/payments', [paid1, paid2].sort()],
    ] as const) {
      // Times: ISO 8601 (the hosted example's form, an offset, minutes only, a fraction) and Unix seconds, both.
      expect(sorted(await list(c, path, `startTs=${before}`))).toEqual(mine);
      expect(sorted(await list(c, path, 'startTs=2026-01-06T00:00:00Z'))).toEqual(mine);
      expect((await list(c, path, `startTs=${encodeURIComponent(future)}`)).body.data).toEqual([]);
      expect((await list(c, path, `endTs=${encodeURIComponent(before)}`)).body.data).toEqual([]);
      expect(sorted(await list(c, path, `endTs=${encodeURIComponent(future.replace(/:\d\d\.\d+Z$/, 'Z'))}`))).toEqual(mine);
      expect(sorted(await list(c, path, `endTs=${encodeURIComponent(future.replace('Z', '+00:00'))}&startTs=0`))).toEqual(mine);
      expect((await list(c, path, `startTs=${encodeURIComponent('2099-01-01T01:00:00+01:00')}`)).body.data).toEqual([]);
      // `before` written at +05:00, the hour ahead at -05:00: the offset is applied, not ignored.
      expect(sorted(await list(c, path, `startTs=${encodeURIComponent(at(before, 5))}`))).toEqual(mine);
      expect(sorted(await list(c, path, `endTs=${encodeURIComponent(at(future, -5))}`))).toEqual(mine);
      expect(sorted(await list(c, path, `endTs=${Math.floor(Date.now() / 1000) + 3600}`))).toEqual(mine);
      // network: one, comma-separated (the hosted form), repeated.
      expect(sorted(await list(c, path, 'network=eip155:31337'))).toEqual([paid1, paid2].sort());
      expect(sorted(await list(c, path, 'network=eip155:1,eip155:31337'))).toEqual([paid1, paid2].sort());
      expect(sorted(await list(c, path, 'network=eip155:1&network=eip155:31337'))).toEqual([paid1, paid2].sort());
      expect((await list(c, path, 'network=eip155:1,eip155:10')).body.data).toEqual([]);
      // token_symbol and status, repeated (and token_symbol comma-separated).
      expect(sorted(await list(c, path, 'token_symbol=EURC&token_symbol=usdc'))).toEqual([paid1, paid2].sort());
      expect(sorted(await list(c, path, 'token_symbol=EURC,USDC'))).toEqual([paid1, paid2].sort());
      expect((await list(c, path, 'token_symbol=EURC')).body.data).toEqual([]);
      expect(sorted(await list(c, path, 'status=succeeded&status=requires_action'))).toEqual(mine);
      expect(sorted(await list(c, path, 'status=expired&status=failed'))).toEqual([]);
      // sortBy=date is createdAt.
      expect(idsOf((await list(c, path, 'sortBy=date&sortDir=asc')).body)).toEqual(mine === all ? [paid1, paid2, unpaid] : [paid1, paid2]);
      expect(idsOf((await list(c, path, 'sortBy=date')).body)).toEqual(mine === all ? [unpaid, paid2, paid1] : [paid2, paid1]);
    }
    // merchantId repeated (the hosted form): any of them; each must be the account's.
    expect(sorted(await list(partner, '/v1/payments', `merchantId=${shop.merchantId}&merchantId=${second}`))).toEqual(all);
    expect(idsOf((await list(partner, '/v1/payments', `merchantId=${second}`)).body)).toEqual([unpaid]);
    expect(sorted(await list(partner, '/v1/payments', 'merchantId='))).toEqual(all); // empty: no filter, as before
    const other = await merchantWithSettlement(svc, 'Hosted lists other');
    const foreign = await partner('GET', `/v1/payments?merchantId=${shop.merchantId}&merchantId=${other.merchantId}`);
    expect([foreign.status, foreign.body.code]).toEqual([403, 'forbidden']);
  });

  it.each(VERSIONS)(
    'the deprecated path takes start_ts/end_ts as ISO 8601, sort_by=date, a comma network and repeated status (%s)',
    async (_v, version) => {
      const c = as(version);
      const path = `/v1/merchants/${shop.merchantId}/payments`;
      const get = async (qs: string) => {
        const r = await c('GET', `${path}?${qs}`);
        expect([qs, r.status]).toEqual([qs, 200]);
        return idsOf(r.body);
      };
      expect((await get(`start_ts=${before}`)).sort()).toEqual([paid1, paid2].sort());
      expect(await get('start_ts=2099-01-06T00:00:00Z')).toEqual([]);
      expect(await get(`end_ts=${encodeURIComponent(before)}`)).toEqual([]);
      expect(await get(`end_ts=${Math.floor(Date.now() / 1000) + 60}&sort_by=date&sort_dir=asc`)).toEqual([paid1, paid2]);
      expect(await get('sort_by=date')).toEqual([paid2, paid1]);
      expect((await get('network=eip155:1,eip155:31337')).sort()).toEqual([paid1, paid2].sort());
      expect((await get('status=succeeded&status=expired')).sort()).toEqual([paid1, paid2].sort());
      expect(await get('status=expired')).toEqual([]);
    },
  );

  it.each([
    ['startTs=2026-02-30T00:00:00Z'],
    ['startTs=2026-01-06T00:00:00'],
    ['startTs=2026-01-06'],
    ['startTs=1e9'],
    ['endTs=%201771372800'],
    ['network=eip155:1,,eip155:2'],
    ['network=eip155'],
    ['sortBy=name'],
    ['token_symbol=US%20DC'],
  ])('still refuses %s with 400 params_validation', async (qs) => {
    for (const [, version] of VERSIONS) {
      const r = await client(svc.directUrl, { 'Api-Key': shop.apiKey, ...version })('GET', `/v1/payments?${qs}`);
      expect([qs, r.status, r.body.code]).toEqual([qs, 400, 'params_validation']);
    }
  });

  it.each(VERSIONS)(
    'answers in the hosted types: revenue a JSON number in major units, written exactly; settledAt absent until settled (%s)',
    async (_v, version) => {
      const partner = as(version);
      // Settled (immediate settlement): the paid payments get settledAt; the unpaid one has none, not null.
      const r = await eventually(
        () => partner('GET', '/v1/payments'),
        (x) => x.body.data.filter((p: { settledAt?: string }) => p.settledAt).length === 2,
        30_000,
      );
      const byId = Object.fromEntries(r.body.data.map((p: { paymentId: string }) => [p.paymentId, p]));
      expect('settledAt' in byId[unpaid]).toBe(false);
      expect(byId[paid1].settledAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/));
      // Three payments listed (two paid, one open), USD 50.50 of revenue from the two, one buyer.
      expect(r.text).toContain('"stats":{"totalRevenue":[{"amount":50.5,"currency":"USD"}],"totalTransactions":3,"totalCustomers":1}');
      const mine = await as({ ...version, 'Merchant-Id': second })('GET', '/v1/merchants/payments');
      expect(mine.text).toContain('"stats":{"totalRevenue":[],"totalTransactions":1,"totalCustomers":0}');
      expect('settledAt' in mine.body.data[0]).toBe(false);

      const legacy = await partner('GET', `/v1/merchants/${shop.merchantId}/payments?sort_by=date&sort_dir=asc`);
      expect(legacy.status).toBe(200);
      expect(legacy.text).toContain(`"payment_id":"${paid1}"`);
      expect(legacy.text).toMatch(
        new RegExp(`"payment_id":"${paid1}".*?"wallet_name":"".*?"nonce":null.*?"fiat_amount":4050,"fiat_currency":"USD"`),
      );
      expect(legacy.body.data.map((p: { fiat_amount: unknown; wallet_name: unknown }) => [p.fiat_amount, p.wallet_name])).toEqual([
        [4050, ''],
        [1000, ''],
      ]);
      expect(legacy.text).toContain('"total_revenue":{"amount":50.5,"currency":"USD"}');
      const empty = await partner('GET', `/v1/merchants/${second}/payments`);
      expect(empty.text).toContain('"fiat_amount":999,');
      expect(empty.text).toContain('"total_revenue":{"amount":0,"currency":"USD"}');
    },
  );

  it("stats: a refunded payment brings no revenue; the refund's funding payment is listed and counted, but no revenue", async () => {
    // Settled at once, the account has nothing left to refund from: the refund waits for its funding payment.
    const refund = await as({ ...PREVIEW, 'Merchant-Id': shop.merchantId })('POST', '/v1/refunds', { body: { paymentId: paid2 } });
    expect([refund.status, refund.body.refund?.status]).toEqual([200, 'requires_funding']);
    const funding: string = refund.body.refund.fundingInstructions.paymentId;
    await paySucceeded(funding, shop.accountId);
    // One list: paid1 (USD 40.50, not refunded), paid2 (USD 10.00, refunded in full), the funding payment (succeeded,
    // the partner's own money: no sale), and the second merchant's open payment. Revenue: 40.50, a JSON number.
    const net = '"totalRevenue":[{"amount":40.5,"currency":"USD"}]';
    for (const [, version] of VERSIONS) {
      const r = await as(version)('GET', '/v1/payments');
      expect(idsOf(r.body).sort()).toEqual([paid1, paid2, funding, unpaid].sort());
      expect(r.body.data.find((p: { paymentId: string }) => p.paymentId === funding)).toMatchObject({ status: 'succeeded' });
      expect(r.text).toContain(`"stats":{${net},"totalTransactions":4,"totalCustomers":1}`);
      const merchant = await as({ ...version, 'Merchant-Id': shop.merchantId })('GET', '/v1/merchants/payments');
      expect(merchant.text).toContain(`"stats":{${net},"totalTransactions":3,"totalCustomers":1}`);
      const legacy = await as(version)('GET', `/v1/merchants/${shop.merchantId}/payments`);
      expect(legacy.text).toContain('"total_revenue":{"amount":40.5,"currency":"USD"},"total_transactions":3');
    }
    // The refund, once sent, changes nothing more: revenue is net of refunds not failed, from their creation.
    await eventually(
      () => as({ ...PREVIEW, 'Merchant-Id': shop.merchantId })('GET', `/v1/refunds/${refund.body.refund.id}`),
      (x) => x.body.refund?.status === 'succeeded',
      60_000,
    );
    const after = await as({})('GET', '/v1/merchants/payments?status=succeeded', { headers: { 'Merchant-Id': shop.merchantId } });
    expect(after.body.stats).toEqual({ totalRevenue: [{ amount: 40.5, currency: 'USD' }], totalTransactions: 3, totalCustomers: 1 });
    // Not succeeded (open, or expired on a slow run): no revenue, no customer, yet counted.
    const open = await as({})('GET', '/v1/payments?status=requires_action&status=expired');
    expect(open.body.stats).toEqual({ totalRevenue: [], totalTransactions: 1, totalCustomers: 0 });
  }, 120_000);
});
