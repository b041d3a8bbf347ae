import { createKey } from '../../src/db/accountsRepo';
import { createDb, ping } from '../../src/db/knex';
import { balanceOf, newBuyer } from '../support/chain';
import { eventually } from '../support/eventually';
import { uniqueKey } from '../support/fixtures';
import { admin, client, newAccount, newKey } from '../support/service';
import { describeIsolation, side, snapshot, type Side } from '../support/testMode';
import { forPayment, partner, Partner, rx, svc, useWebhooksSuite } from '../support/webhooksSuite';
import { signedBody, x402PayTo } from '../support/x402';

// Test mode (docs/testmode.md): the key alone chooses the mode. For one account, a live key and a test key each
// see only their own mode's objects: the other mode's ids answer exactly as ids that do not exist, in every
// operation; lists, counts and webhooks never mix them. Test traffic keeps its own idempotency keys and rate limits.

useWebhooksSuite();

const NO_MERCHANT = 'mrch_0000000000000000000000';

let acct: Partner;
let live: Side;
let test: Side;
let testKey: Record<string, string>;

beforeAll(async () => {
  acct = await partner();
  testKey = await admin('keys', 'create', '--account', acct.accountId, '--type', 'partner', '--mode', 'test');
  const testWallet = await newKey(acct.accountId, 'wallet', undefined, 'test');
  const liveWallet = await newKey(acct.accountId, 'wallet');
  live = await side(
    svc.directUrl,
    { apiKey: acct.apiKey, walletKey: liveWallet.apiKey },
    { hooksUrl: rx.url, merchantId: acct.merchantId },
  );
  test = await side(svc.directUrl, { apiKey: testKey.apiKey, walletKey: testWallet.apiKey }, { hooksUrl: rx.url });
}, 60_000);

describe('test keys', () => {
  it('admin keys create --mode test makes a pgk_test_ key; live keys keep their form; a prefix that lies is refused', async () => {
    expect(testKey).toMatchObject({ mode: 'test', apiKey: expect.stringMatching(/^pgk_test_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}$/) });
    expect(acct.apiKey).toMatch(/^pgk_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}$/);
    const asLive = client(svc.directUrl, { 'Api-Key': testKey.apiKey.replace('pgk_test_', 'pgk_') });
    expect(await asLive('GET', '/v1/merchants')).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });
    const asTest = client(svc.directUrl, { 'Api-Key': acct.apiKey.replace('pgk_', 'pgk_test_') });
    expect(await asTest('GET', '/v1/merchants')).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });
    const stored = await svc.db('api_keys').where({ id: testKey.keyId }).first('account_id', 'secret_hash');
    expect(stored.account_id).toBe(`acct_test_${acct.accountId.slice(5)}`);
    expect(stored.secret_hash.toString('hex')).not.toContain(testKey.apiKey.slice(-43));
    expect(
      await admin('keys', 'create', '--account', acct.accountId, '--type', 'partner', '--mode', 'sandbox').catch((e) => e.message),
    ).toMatch(/--mode must be live or test/);
  });

  it("an account's first test credentials made at once all work, in one test scope", async () => {
    // The first test credential makes the test scope; those made beside it (other processes) find it, not fail on it.
    const dbs = Array.from({ length: 6 }, () => createDb(process.env.DATABASE_URL!, 1));
    try {
      for (let round = 0; round < 10; round++) {
        const { accountId } = await newAccount();
        await Promise.all(dbs.map((db) => ping(db)));
        const keys = await Promise.all(dbs.map((db, i) => createKey(db, accountId, i % 2 ? 'wallet' : 'partner', 'test')));
        const rows = await svc
          .db('api_keys')
          .whereIn(
            'id',
            keys.map((k) => k!.keyId),
          )
          .select('account_id');
        expect(rows.map((r) => r.account_id)).toEqual(Array(6).fill(`acct_test_${accountId.slice(5)}`));
        expect((await client(svc.directUrl, { 'Api-Key': keys[0]!.apiKey })('GET', '/v1/merchants')).status).toBe(200);
      }
    } finally {
      await Promise.all(dbs.map((db) => db.destroy()));
    }
  });

  it('admin apps create --mode test makes gateway credentials of test mode (pgc_test_)', async () => {
    const app = await admin('apps', 'create', '--account', acct.accountId, '--name', 'Test wallet app', '--mode', 'test');
    expect(app.clientId).toMatch(/^pgc_test_[0-9A-Za-z]{43}$/);
    const asApp = (clientId: string) => client(svc.directUrl, { 'App-Id': app.appId, 'Client-Id': clientId });
    expect((await asApp(app.clientId)('GET', `/v1/gateway/payment/${test.paymentId}`)).status).toBe(200);
    expect(await asApp(app.clientId)('GET', `/v1/gateway/payment/${live.paymentId}`)).toMatchObject({
      status: 404,
      body: { code: 'payment_not_found' },
    });
    expect((await asApp(app.clientId.replace('pgc_test_', 'pgc_'))('GET', `/v1/gateway/payment/${test.paymentId}`)).status).toBe(401);
  });
});

describeIsolation(
  () => live,
  () => test,
);

describe('lists, counts and searches', () => {
  it("show each key only its own mode's objects", async () => {
    for (const [mine, theirs] of [
      [live, test],
      [test, live],
    ]) {
      const ids = (r: { body: any }, key: string) => (r.body[key] as { id?: string; paymentId?: string }[]).map((x) => x.id ?? x.paymentId);
      const listed = await mine.partner('GET', '/v1/merchants?limit=100');
      const merchants = ids(listed, 'merchants');
      expect(listed.body.totalCount).toBe(merchants.length);
      expect(merchants).toContain(mine.merchantId);
      expect(merchants).not.toContain(theirs.merchantId);
      const payments = await mine.partner('GET', '/v1/payments?limit=100');
      expect(ids(payments, 'data')).toContain(mine.paymentId);
      expect(ids(payments, 'data')).not.toContain(theirs.paymentId);
      expect((await mine.partner('GET', `/v1/merchants?search=${theirs.merchantId}`)).body.merchants).toEqual([]);
      expect(ids(await mine.partner('GET', `/v1/merchants?search=${mine.merchantId}`), 'merchants')).toEqual([mine.merchantId]);
      expect(ids(await mine.partner('GET', '/v1/webhook-endpoints'), 'endpoints')).toEqual([mine.endpointId]);
      const events = ids(await mine.partner('GET', '/v1/events?limit=100'), 'events');
      expect(events).toContain(mine.eventId);
      expect(events).not.toContain(theirs.eventId);
      expect((await mine.partner('GET', `/v1/events?paymentId=${theirs.paymentId}`)).body.events).toEqual([]);
    }
  });

  it("keeps each mode's Idempotency-Keys apart: the same key in the other mode is a new request", async () => {
    const key = uniqueKey();
    const create = (s: Side) =>
      s.partner('POST', '/v1/merchants', {
        body: { merchantName: 'Same key', merchantEmail: 'm@x.io' },
        headers: { 'Idempotency-Key': key },
      });
    const a = await create(live);
    const b = await create(test);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.merchant.id).not.toBe(a.body.merchant.id);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('livemode on the wire (2026-02-19.preview)', () => {
  it('endpoints, events and balances say their mode; the stable version has no events API to carry it', async () => {
    for (const [s, livemode] of [
      [live, true],
      [test, false],
    ] as const) {
      expect((await s.partner('GET', `/v1/webhook-endpoints/${s.endpointId}`)).body.endpoint.livemode).toBe(livemode);
      const event = (await s.partner('GET', `/v1/events/${s.eventId}`)).body.event;
      expect(event).toMatchObject({ livemode, data: { payment: { paymentId: s.paymentId, livemode } } });
      expect((await s.partner('GET', '/v1/balance')).body.livemode).toBe(livemode);
    }
    const stable = client(svc.directUrl, { 'Api-Key': testKey.apiKey, 'PAY-Version': '2026-02-18' });
    expect((await stable('GET', '/v1/events')).status).toBe(404);
  });
});

describe('webhooks', () => {
  it("a test payment paid with a test wallet key notifies only the account's test endpoints", async () => {
    const buyer = await newBuyer(1_000_000n);
    const o = await test.wallet('POST', `/v1/gateway/payment/${test.paymentId}/options`, {
      body: { accounts: [`eip155:31337:${buyer.address}`] },
    });
    const opt = o.body.options[0];
    const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
    const c = await test.wallet('POST', `/v1/gateway/payment/${test.paymentId}/confirm`, {
      body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] },
    });
    expect(c.status).toBe(200);
    const received = await rx.until((all) => forPayment(all, test.paymentId).some((r) => r.body.type === 'payment.succeeded'));
    for (const r of forPayment(received, test.paymentId))
      expect(r.body).toMatchObject({ livemode: false, data: { payment: { livemode: false } } });
    const refund = await test.partner('POST', '/v1/refunds', {
      body: { paymentId: test.paymentId },
      headers: { 'Merchant-Id': test.merchantId },
    });
    expect(refund).toMatchObject({ status: 200, body: { refund: { livemode: false } } });
    const list = async (s: Side) => (await s.partner('GET', '/v1/payments')).body;
    const ids = (b: { data: { paymentId: string }[] }) => b.data.map((p) => p.paymentId);
    // Fully refunded: a transaction that brings no revenue (net of refunds). Each mode's list counts its own payments,
    // every one listed (the refund's funding payment, if it needed one, too).
    const [t, l] = [await list(test), await list(live)];
    expect(t.stats).toMatchObject({ totalTransactions: t.data.length, totalRevenue: [{ currency: 'USD', amount: 0 }] });
    expect(ids(t)).toContain(test.paymentId);
    expect(l.stats).toMatchObject({ totalTransactions: l.data.length, totalRevenue: [] });
    expect(ids(l)).not.toContain(test.paymentId);
    const deliveries = await eventually(
      async () => svc.db('webhook_deliveries as d').join('payment_events as e', 'e.id', 'd.event_id').where('e.payment_id', test.paymentId),
      (rows) => rows.length >= 3,
    );
    expect(new Set(deliveries.map((d: { endpoint_id: string }) => d.endpoint_id))).toEqual(new Set([test.endpointId]));
    const liveSide = await svc.db('webhook_deliveries').where({ endpoint_id: live.endpointId }).select('event_id');
    const liveEvents = await svc
      .db('payment_events')
      .whereIn(
        'id',
        liveSide.map((d: { event_id: string }) => d.event_id),
      )
      .pluck('payment_id');
    expect(liveEvents).not.toContain(test.paymentId);
  }, 60_000);
});

describe('refunds and the ledger', () => {
  it("the test payment's refund and ledger rows are the test key's, with livemode false; a live key gets the refund's 404 of an unknown id", async () => {
    const asMerchant = (s: Side) => ({ headers: { 'Merchant-Id': s.merchantId } });
    const listed = await test.partner('GET', `/v1/refunds?paymentId=${test.paymentId}`, asMerchant(test));
    expect(listed.body.data).toEqual([expect.objectContaining({ paymentId: test.paymentId, livemode: false })]);
    const refundId: string = listed.body.data[0].id;
    expect((await test.partner('GET', `/v1/refunds/${refundId}`, asMerchant(test))).body.refund).toMatchObject({
      id: refundId,
      livemode: false,
    });
    const unknown = await live.partner('GET', '/v1/refunds/ref_0000000000000000000000', asMerchant(live));
    const got = await live.partner('GET', `/v1/refunds/${refundId}`, asMerchant(live));
    expect(got.status).toBe(404);
    expect([got.status, got.body.code, got.body.message]).toEqual([unknown.status, unknown.body.code, unknown.body.message]);

    const range = `from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date(Date.now() + 60_000).toISOString()}`;
    const rows = async (s: Side) => (await s.partner('GET', `/v1/reports/balance-transactions?${range}&limit=1000`)).body.data as any[];
    const testRows = await rows(test);
    expect(testRows.filter((r) => r.paymentId === test.paymentId).length).toBeGreaterThan(0);
    expect(new Set(testRows.map((r) => r.livemode))).toEqual(new Set([false]));
    const liveRows = await rows(live);
    expect(liveRows.filter((r) => r.paymentId === test.paymentId || r.refundId === refundId)).toEqual([]);
    for (const r of liveRows) expect(r.livemode).toBe(true);
    // The items of the preview's own lists say their mode too.
    for (const [s, livemode] of [
      [live, true],
      [test, false],
    ] as const) {
      for (const e of (await s.partner('GET', '/v1/webhook-endpoints')).body.endpoints) expect(e.livemode).toBe(livemode);
      for (const e of (await s.partner('GET', '/v1/events?limit=100')).body.events) expect(e.livemode).toBe(livemode);
    }
  });
});

describe('x402', () => {
  it('a settlement made with a test key is a test payment: to a live key its id and its merchant are as unknown ones', async () => {
    const payTo = (await x402PayTo(test.partner))!;
    const buyer = await newBuyer(20_000n);
    const terms = (merchantId: string) => ({ payTo, amount: '10000', extra: { name: 'USD Coin', version: '2', merchantId } });
    // A test key naming the live merchant is answered as for a merchant that does not exist, and nothing moves.
    for (const op of ['verify', 'settle']) {
      const unknown = await test.partner('POST', `/x402/${op}`, { body: await signedBody(buyer, terms(NO_MERCHANT)) });
      const got = await test.partner('POST', `/x402/${op}`, { body: await signedBody(buyer, terms(live.merchantId)) });
      expect(got.status).toBeGreaterThanOrEqual(400);
      // The message names the merchant asked for: the same words with either id.
      const message = got.body.message.replace(live.merchantId, NO_MERCHANT);
      expect([got.status, got.body.code, message]).toEqual([unknown.status, unknown.body.code, unknown.body.message]);
    }
    expect(await balanceOf(buyer.address)).toBe(20_000n);
    const settled = await test.partner('POST', '/x402/settle', { body: await signedBody(buyer, terms(test.merchantId)) });
    expect(settled.body).toMatchObject({ success: true });
    const id: string = settled.body.paymentId;
    expect((await test.partner('GET', `/x402/settlements/${id}`)).body).toMatchObject({ success: true, paymentId: id });
    const unknown = await live.partner('GET', '/x402/settlements/pay_0000000000000000000000');
    const got = await live.partner('GET', `/x402/settlements/${id}`);
    expect(got.status).toBe(404);
    expect([got.status, got.body.code, got.body.message]).toEqual([unknown.status, unknown.body.code, unknown.body.message]);
    const ids = async (s: Side) =>
      (await s.partner('GET', '/v1/payments?limit=100')).body.data.map((p: { paymentId: string }) => p.paymentId);
    expect(await ids(test)).toContain(id);
    expect(await ids(live)).not.toContain(id);
  });
});

describe('admin testmode reset', () => {
  it("deletes the account's test data, ledger included, and leaves live data and the keys as they were", async () => {
    const refunds = await test.partner('GET', `/v1/refunds?paymentId=${test.paymentId}`, { headers: { 'Merchant-Id': test.merchantId } });
    const refundId = refunds.body.data[0].id;
    // No refund transaction in flight (the reset refuses then): sent and final, or waiting for funds (collector mode
    // reserves the payment's tokens for the merchant's settlement, so a refund right after it is funded by a payment).
    const refund = await eventually(
      async () =>
        (await test.partner('GET', `/v1/refunds/${refundId}`, { headers: { 'Merchant-Id': test.merchantId } })).body.refund.status,
      (s) => s !== 'pending',
      30_000,
    );
    expect(['succeeded', 'requires_funding']).toContain(refund);
    const scope = `acct_test_${acct.accountId.slice(5)}`;
    const journals = () => svc.db('ledger_journals as j').leftJoin('payments as p', 'p.id', 'j.payment_id');
    expect(Number((await journals().where('p.account_id', scope).count({ n: '*' }))[0].n)).toBeGreaterThan(0);
    // Outside the reset the ledger stays append-only, test journals too.
    await expect(svc.db.raw('DELETE FROM ledger_journals WHERE payment_id = ?', [test.paymentId])).rejects.toThrow(/append-only/);
    const liveBefore = [
      await snapshot(live),
      (await live.partner('GET', '/v1/balance')).body,
      await journals().where('p.account_id', acct.accountId),
    ];

    const count = async (table: string) => Number((await svc.db(table).where({ account_id: scope }).count({ n: '*' }))[0].n);
    const held = { payments: await count('payments'), merchants: await count('merchants'), webhook_endpoints: 1, refunds: 1 };
    expect(held.payments).toBeGreaterThan(0);
    // Another account's test data is not this account's to reset.
    const neighbour = await newAccount('Neighbour');
    const neighbourKey = (await newKey(neighbour.accountId, 'partner', undefined, 'test')).apiKey;
    const theirs = await side(svc.directUrl, { apiKey: neighbourKey, walletKey: neighbourKey }, { hooksUrl: rx.url });
    const theirsBefore = await snapshot(theirs);
    // The reset refuses while a test payment's transaction is still moving (an earlier test's x402 settlement may be
    // settling on to its merchant): wait until every one of them is final, as an operator would.
    await eventually(
      async () =>
        Number(
          (
            await svc
              .db('chain_transactions as t')
              .join('payments as p', 'p.id', 't.payment_id')
              .where('p.account_id', scope)
              .whereIn('t.status', ['pending', 'mined'])
              .count({ n: '*' })
          )[0].n,
        ),
      (n) => n === 0,
      60_000,
    );
    const out = await admin('testmode', 'reset', '--account', acct.accountId);
    expect(out).toMatchObject({ accountId: acct.accountId, deleted: held });

    expect((await test.partner('GET', '/v1/merchants')).body.merchants).toEqual([]);
    expect((await test.partner('GET', '/v1/payments')).body.data).toEqual([]);
    expect((await test.partner('GET', '/v1/events')).body.events).toEqual([]);
    expect((await test.partner('GET', '/v1/webhook-endpoints')).body.endpoints).toEqual([]);
    expect((await test.partner('GET', '/v1/balance')).body).toEqual({ balances: [], livemode: false });
    expect(await test.wallet('GET', `/v1/gateway/payment/${test.paymentId}`)).toMatchObject({
      status: 404,
      body: { code: 'payment_not_found' },
    });
    expect(Number((await journals().where('j.account_id', scope).count({ n: '*' }))[0].n)).toBe(0);
    const liveAfter = [
      await snapshot(live),
      (await live.partner('GET', '/v1/balance')).body,
      await journals().where('p.account_id', acct.accountId),
    ];
    expect(liveAfter).toEqual(liveBefore);
    expect(await snapshot(theirs)).toEqual(theirsBefore);
    expect(await admin('testmode', 'reset', '--account', `acct_test_${acct.accountId.slice(5)}`).catch((e) => e.message)).toMatch(
      /no account/,
    );
  }, 60_000);
});
