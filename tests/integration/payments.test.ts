import { renderEvent } from '../../src/wire/events';
import { findEvent } from '../../src/db/webhooks';
import { paymentEventRecord } from '../support/eventRecord';
import { findPayment } from '../../src/db/payments';
import type { PrivateKeyAccount } from 'viem/accounts';
import { admin, client, externalService, newAccount, startTestService, TestService } from '../support/service';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { newBuyer } from '../support/chain';
import { scrapedValue } from '../support/prometheus';
import { creationsWaitingOnLocks } from '../support/locks';

let svc: TestService;
let m: Awaited<ReturnType<typeof merchantWithSettlement>>;
/** Straight to the service, for requests that break the stable contract on purpose (or use the preview). */
let direct: ReturnType<typeof client>;
const BASE = 'https://pay.example.com';
/** Tests that need this file's own service (its environment, or stopping it) skip against an external one. */
const ownServiceIt = externalService ? it.skip : it;
/** Pays the payments that must succeed, with real tokens on the development chain. */
let buyer: PrivateKeyAccount;

beforeAll(async () => {
  svc = await startTestService(); // PUBLIC_BASE_URL and a 200 ms sweeper from service-env.json
  buyer = await newBuyer(1_000_000_000n);
  m = await merchantWithSettlement(svc, 'Payments');
  direct = client(svc.directUrl, { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId });
}, 60_000); // starts a service (and the admin command): slow on a busy machine
afterAll(() => svc.close());

const usd = (value = '1000') => ({ unit: 'iso4217/USD', value });
const create = (body: Record<string, unknown>, c = m.asMerchant, headers: Record<string, string> = {}) =>
  c('POST', '/v1/payments', { body, headers });
const newPayment = async (extra: Record<string, unknown> = {}) => {
  const r = await create({ referenceId: uniqueKey('order'), amount: usd(), ...extra });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.paymentId as string;
};
const events = (paymentId: string) => svc.db('payment_events').where({ payment_id: paymentId }).orderBy('version');
const walletKeys = new Map<string, string>();
/** The buyer pays through the gateway (a wallet key of the payment's account), on chain; resolves once it succeeded. */
const paySucceeded = async (paymentId: string, accountId: string) => {
  if (!walletKeys.has(accountId))
    walletKeys.set(accountId, (await admin('keys', 'create', '--account', accountId, '--type', 'wallet')).apiKey);
  const gw = client(svc.url, { 'Api-Key': walletKeys.get(accountId)! });
  const o = await gw('POST', `/v1/gateway/payment/${paymentId}/options`, { body: { accounts: [`eip155:31337:${buyer.address}`] } });
  const opt = o.body.options?.[0];
  if (!opt) throw new Error(`no option for ${paymentId}: ${o.text}`);
  const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
  const c = await gw('POST', `/v1/gateway/payment/${paymentId}/confirm`, {
    body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] },
  });
  if (c.status !== 200) throw new Error(c.text);
  const final = await eventually(
    async () => (await gw('GET', `/v1/gateway/payment/${paymentId}/status?maxPollMs=5000`)).body,
    (b) => b.isFinal,
    20_000,
  );
  if (final.status !== 'succeeded') throw new Error(`payment ${paymentId} ended ${JSON.stringify(final)}`);
};

describe('POST /v1/payments', () => {
  it('creates a payment: 201 per docs/decisions.md, stored with its created event', async () => {
    const before = Math.floor(Date.now() / 1000);
    const r = await create({ referenceId: 'order-1', amount: usd('1000') });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      paymentId: expect.stringMatching(/^pay_/),
      status: 'requires_action',
      expiresAt: expect.any(Number),
      isFinal: false,
      pollInMs: expect.any(Number),
      gatewayUrl: `${BASE}/?pid=${r.body.paymentId}`,
    });
    expect(r.body.expiresAt).toBeGreaterThanOrEqual(before + 299);
    expect(r.body.expiresAt).toBeLessThanOrEqual(before + 301);
    const row = await svc.db('payments').where({ id: r.body.paymentId }).first();
    expect(row).toMatchObject({
      merchant_id: m.merchantId,
      reference_id: 'order-1',
      currency: 'USD',
      amount_minor: '1000',
      status: 'requires_action',
      version: 1,
    });
    expect(await events(r.body.paymentId)).toEqual([expect.objectContaining({ type: 'payment.created', version: 1 })]);
    // Stored as the version-neutral record only (migration 20261201090100 ends the preview snapshot beside it), and
    // queued for the webhook dispatcher in the same statement (marked, so no dispatcher of the release before the
    // queue takes it too); the webhook suites check what the queue delivers.
    const [stored] = await events(r.body.paymentId);
    expect(stored.record).toMatchObject({
      paymentId: r.body.paymentId,
      status: 'requires_action',
      currency: 'USD',
      amountMinor: '1000',
      tokenAsset: null,
    });
    expect(stored.data).toBeNull();
    expect(stored.dispatched_at).not.toBeNull();
    // The times are the database's, written by the statement that stores the payment, in the event as in the row.
    expect(stored.record.createdAt).toBe((row.created_at as Date).toISOString());
    expect(stored.record.expiresAt).toBe((row.expires_at as Date).toISOString());
    expect(r.body.expiresAt).toBe(Math.floor((row.expires_at as Date).getTime() / 1000));
    expect((row.expires_at as Date).getTime() - (row.created_at as Date).getTime()).toBe(300_000);
    expect(row.updated_at).toEqual(row.created_at);
  });

  it('keeps huge amounts exact (no floats)', async () => {
    const big = '123456789012345678901234567';
    const id = (await create({ referenceId: 'big', amount: usd(big) })).body.paymentId;
    expect((await svc.db('payments').where({ id }).first()).amount_minor).toBe(big);
    expect((await m.asMerchant('GET', `/v1/payments/${id}`)).body.amount).toEqual(usd(big));
  });

  it('honours a given expiresAt', async () => {
    const at = Math.floor(Date.now() / 1000) + 3600;
    const r = await create({ referenceId: 'x', amount: usd(), expiresAt: at });
    expect(r.body.expiresAt).toBe(at);
    const [stored] = await events(r.body.paymentId);
    expect(stored.record.expiresAt).toBe(new Date(at * 1000).toISOString());
    // As a webhook at the preview version shows it: Unix seconds.
    expect(renderEvent((await findEvent(svc.db, stored.id))!, '2026-02-19.preview').data.payment.expiresAt).toBe(at);
  });

  it('takes an expiry up to 30 days ahead and refuses a later one, storing nothing', async () => {
    const days30 = 30 * 24 * 3600;
    const ok = await create({ referenceId: 'x', amount: usd(), expiresAt: Math.floor(Date.now() / 1000) + days30 - 60 });
    expect(ok.status).toBe(201);
    const ref = uniqueKey('far');
    const far = await create({ referenceId: ref, amount: usd(), expiresAt: Math.floor(Date.now() / 1000) + days30 + 60 });
    expect([far.status, far.body.code, far.body.issues?.[0]?.field]).toEqual([400, 'params_validation', '/expiresAt']);
    expect(await svc.db('payments').where({ reference_id: ref })).toEqual([]);
  });

  it.each([
    ['a unit that is not iso4217', { referenceId: 'x', amount: { unit: 'USD', value: '1000' } }, '/amount/unit'],
    ['an unknown currency', { referenceId: 'x', amount: { unit: 'iso4217/XYZ', value: '1000' } }, '/amount/unit'],
    ['a leading zero', { referenceId: 'x', amount: usd('0100') }, '/amount/value'],
    ['zero', { referenceId: 'x', amount: usd('0') }, '/amount/value'],
    ['a decimal point', { referenceId: 'x', amount: usd('10.00') }, '/amount/value'],
    ['a JSON number', { referenceId: 'x', amount: { unit: 'iso4217/USD', value: 1000 } }, '/amount/value'],
    ['no referenceId', { amount: usd() }, '/referenceId'],
    ['an expiry in the past', { referenceId: 'x', amount: usd(), expiresAt: 1000 }, '/expiresAt'],
    [
      'a NUL in referenceId (found by Schemathesis: PostgreSQL text cannot hold it)',
      { referenceId: 'a\u0000b', amount: usd() },
      '/referenceId',
    ],
    [
      'checkout outside the preview',
      { referenceId: 'x', amount: usd(), checkout: { successUrl: 'https://a.io/s', errorUrl: 'https://a.io/e' } },
      '/checkout',
    ],
  ])('refuses %s with 400 params_validation', async (_w, body, field) => {
    const before = await svc.db('payments').where({ merchant_id: m.merchantId }).count<{ c: string }[]>({ c: '*' });
    const r = await create(body, direct);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('params_validation');
    expect(r.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(await svc.db('payments').where({ merchant_id: m.merchantId }).count<{ c: string }[]>({ c: '*' })).toEqual(before);
  });

  it('accepts checkout URLs in the preview version, HTTPS only', async () => {
    const preview = { 'PAY-Version': '2026-02-19.preview' };
    const ok = await create(
      { referenceId: 'c', amount: usd(), checkout: { successUrl: 'https://shop.example/ok', errorUrl: 'https://shop.example/ko' } },
      direct,
      preview,
    );
    expect(ok.status).toBe(201);
    expect(await svc.db('payments').where({ id: ok.body.paymentId }).first()).toMatchObject({
      checkout_success_url: 'https://shop.example/ok',
    });
    const http = await create(
      { referenceId: 'c', amount: usd(), checkout: { successUrl: 'http://shop.example/ok', errorUrl: 'https://shop.example/ko' } },
      direct,
      preview,
    );
    expect(http.status).toBe(400);
  });

  it('refuses merchants that cannot take payments with 409 invalid_state', async () => {
    const bare = (
      await m.api('POST', '/v1/merchants', {
        body: { merchantName: 'Bare', merchantEmail: 'b@x.io' },
        headers: { 'Idempotency-Key': uniqueKey() },
      })
    ).body.merchant.id;
    const asBare = client(svc.url, { 'Api-Key': m.apiKey, 'Merchant-Id': bare });
    const none = await create({ referenceId: 'x', amount: usd() }, asBare);
    expect(none.status).toBe(409);
    expect(none.body.code).toBe('invalid_state');
    const eur = await create({ referenceId: 'x', amount: { unit: 'iso4217/EUR', value: '500' } });
    expect(eur.status).toBe(409);
    const doomed = await merchantWithSettlement(svc, 'Doomed');
    await doomed.api('DELETE', `/v1/merchants/${doomed.merchantId}`);
    const deleted = await create({ referenceId: 'x', amount: usd() }, doomed.asMerchant);
    expect(deleted.status).toBe(409);
    expect(deleted.body.code).toBe('invalid_state');
  });

  it("another account's merchant -> 403; an unknown one -> 404", async () => {
    const intruder = await newAccount('Intruder');
    const r = await create(
      { referenceId: 'x', amount: usd() },
      client(svc.url, { 'Api-Key': intruder.apiKey, 'Merchant-Id': m.merchantId }),
    );
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('forbidden');
    const unknown = await create({ referenceId: 'x', amount: usd() }, client(svc.url, { 'Api-Key': m.apiKey, 'Merchant-Id': 'mrch_nope' }));
    expect(unknown.status).toBe(404);
  });

  it('replays with an optional Idempotency-Key', async () => {
    const key = uniqueKey();
    const a = await create({ referenceId: 'idem', amount: usd() }, m.asMerchant, { 'Idempotency-Key': key });
    const b = await create({ referenceId: 'idem', amount: usd() }, m.asMerchant, { 'Idempotency-Key': key });
    expect(b.text).toBe(a.text);
    // This merchant's rows only: the contract gate runs the suite twice on one database.
    expect(await svc.db('payments').where({ reference_id: 'idem', merchant_id: m.merchantId }).count<{ c: string }[]>({ c: '*' })).toEqual([
      { c: '1' },
    ]);
  });
});

describe('creations arriving together (those waiting go in one statement: src/db/coalesce.ts)', () => {
  const waitingCreations = () => scrapedValue(svc.directUrl, 'paygate_payment_creations_waiting');
  /**
   * Sends `requests` so that they wait together: two creations for the fixture merchant are held first (the
   * merchant's row is locked, which their foreign-key checks wait for), taking both statements creation runs at
   * once; the requests are sent once both wait, and the lock is let go once all of them are waiting too.
   */
  const together = async <T>(requests: (() => Promise<T>)[]): Promise<T[]> => {
    const trx = await svc.db.transaction();
    let held: Promise<unknown>[] = [];
    try {
      await trx('merchants').where({ id: m.merchantId }).forUpdate().select('id');
      held = [0, 1].map(() => create({ referenceId: uniqueKey('held'), amount: usd() }));
      const blocked = await eventually(
        () => creationsWaitingOnLocks(svc.db),
        (n) => n === 2,
        10_000,
      );
      expect(blocked).toBe(2);
      const answers = Promise.all(requests.map((r) => r()));
      expect(await eventually(waitingCreations, (n) => n === requests.length, 10_000)).toBe(requests.length);
      await trx.commit();
      return await answers;
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
      await Promise.all(held);
    }
  };
  const transactionsOf = async (ids: string[]) =>
    Number((await svc.db.raw(`SELECT count(DISTINCT xmin::text) AS n FROM payments WHERE id = ANY(?)`, [ids])).rows[0].n);

  ownServiceIt('each gets its own answer and only its own rows, whatever the others with it asked', async () => {
    const intruder = await newAccount('Batch intruder');
    const bare = (
      await m.api('POST', '/v1/merchants', {
        body: { merchantName: 'Batch bare', merchantEmail: 'b@x.io' },
        headers: { 'Idempotency-Key': uniqueKey() },
      })
    ).body.merchant.id;
    const as = (key: string, merchantId: string) => client(svc.url, { 'Api-Key': key, 'Merchant-Id': merchantId });
    const tag = uniqueKey('together');
    const inAnHour = Math.floor(Date.now() / 1000) + 3600;
    // Every kind of answer creation gives, interleaved; each request's amount is its own, to tell them apart, and
    // references carry what array parameters must quote (quotes, backslashes, braces, commas, unicode).
    const checkout = { successUrl: 'https://shop.example/ok', errorUrl: 'https://shop.example/ko' };
    const kinds = [
      { expect: [201], c: m.asMerchant, extra: {} },
      { expect: [201], c: m.asMerchant, extra: { expiresAt: inAnHour } },
      { expect: [201], c: direct, extra: { checkout }, headers: { 'PAY-Version': '2026-02-19.preview' } },
      { expect: [403, 'forbidden'], c: as(intruder.apiKey, m.merchantId), extra: {} },
      { expect: [404, 'merchant_not_found'], c: as(m.apiKey, 'mrch_nope'), extra: {} },
      { expect: [409, 'invalid_state'], c: as(m.apiKey, bare), extra: {} },
      { expect: [400, 'params_validation'], c: m.asMerchant, extra: { expiresAt: inAnHour + 31 * 86400 } },
    ] as const;
    const odd = ['', ' "quoted"', ' back\\slash', ' {brace,comma}', ' NULL', ' ünïcödé ✓ 💸'];
    const sent = Array.from({ length: 63 }, (_, i) => ({
      i,
      kind: kinds[i % kinds.length],
      ref: `${tag}-${i}${odd[i % odd.length]}`,
      value: String(1000 + i),
    }));
    const answers = await together(
      sent.map(
        (x) => () =>
          create({ referenceId: x.ref, amount: usd(x.value), ...x.kind.extra }, x.kind.c, 'headers' in x.kind ? x.kind.headers : {}),
      ),
    );

    const stored = await svc.db('payments').where('reference_id', 'like', `${tag}-%`);
    const byRef = new Map(stored.map((row) => [row.reference_id as string, row]));
    for (const [n, x] of sent.entries()) {
      const r = answers[n];
      if (x.kind.expect[0] !== 201) {
        expect({ i: x.i, status: r.status, code: r.body.code }).toEqual({ i: x.i, status: x.kind.expect[0], code: x.kind.expect[1] });
        expect(byRef.has(x.ref)).toBe(false);
        continue;
      }
      expect({ i: x.i, status: r.status }).toEqual({ i: x.i, status: 201 });
      const row = byRef.get(x.ref)!;
      expect(row).toMatchObject({
        id: r.body.paymentId,
        merchant_id: m.merchantId,
        amount_minor: x.value,
        status: 'requires_action',
        version: 1,
      });
      expect(r.body.expiresAt).toBe(Math.floor((row.expires_at as Date).getTime() / 1000));
      if ('expiresAt' in x.kind.extra) expect(r.body.expiresAt).toBe(inAnHour);
      expect([row.checkout_success_url, row.checkout_error_url]).toEqual(
        'checkout' in x.kind.extra ? [checkout.successUrl, checkout.errorUrl] : [null, null],
      );
      const evs = await events(r.body.paymentId);
      expect(evs.map((e) => [e.type, e.record.paymentId, e.record.amountMinor, e.record.referenceId])).toEqual([
        ['payment.created', r.body.paymentId, x.value, x.ref],
      ]);
      expect(evs[0].record.createdAt).toBe((row.created_at as Date).toISOString());
      expect(evs[0].record.expiresAt).toBe((row.expires_at as Date).toISOString());
    }
    expect(stored).toHaveLength(27);
    // All in one statement: the rows share its transaction's id.
    expect(await transactionsOf(stored.map((row) => row.id))).toBe(1);
  });

  ownServiceIt('a creation the database refuses fails alone: the others waiting with it are created', async () => {
    const tag = uniqueKey('poison');
    const poison = `${tag}-13`;
    await svc.db.raw(`CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.reference_id = '${poison}' THEN RAISE EXCEPTION 'poisoned'; END IF; RETURN NEW; END $$`);
    await svc.db.raw('CREATE TRIGGER refuse_poison BEFORE INSERT ON payments FOR EACH ROW EXECUTE FUNCTION refuse_poison()');
    try {
      const refs = Array.from({ length: 30 }, (_, i) => `${tag}-${i}`);
      const answers = await together(refs.map((ref) => () => create({ referenceId: ref, amount: usd() })));
      expect(answers.map((r, i) => [refs[i], r.status, r.body.code])).toEqual(
        refs.map((ref) => (ref === poison ? [ref, 500, 'internal_error'] : [ref, 201, undefined])),
      );
      const stored = await svc.db('payments').where('reference_id', 'like', `${tag}-%`).pluck('id');
      expect(stored).toHaveLength(29);
      // Each was created alone once the statement of all of them failed.
      expect(await transactionsOf(stored)).toBe(29);
    } finally {
      await svc.db.raw('DROP TRIGGER refuse_poison ON payments');
      await svc.db.raw('DROP FUNCTION refuse_poison()');
    }
  });
});

describe('GET /v1/payments/{id} and /status', () => {
  it('shows details and status to the owning merchant', async () => {
    const id = await newPayment({ referenceId: 'details-1' });
    const d = await m.asMerchant('GET', `/v1/payments/${id}`);
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({
      paymentId: id,
      merchantId: m.merchantId,
      referenceId: 'details-1',
      status: 'requires_action',
      failureCode: null,
      info: null,
      settlement: null,
      amount: usd(),
      refundedAt: null,
    });
    const s = await m.asMerchant('GET', `/v1/payments/${id}/status`);
    expect(s.body).toEqual({ status: 'requires_action', isFinal: false, pollInMs: 1000, failureCode: null, info: null });
  });
  it('403 for another account, 404 for another merchant of the same account or an unknown id', async () => {
    const id = await newPayment();
    const intruder = await newAccount('Peeker');
    const r = await client(svc.url, { 'Api-Key': intruder.apiKey, 'Merchant-Id': m.merchantId })('GET', `/v1/payments/${id}`);
    expect(r.status).toBe(403);
    const sibling = (
      await m.api('POST', '/v1/merchants', {
        body: { merchantName: 'Sib', merchantEmail: 's@x.io' },
        headers: { 'Idempotency-Key': uniqueKey() },
      })
    ).body.merchant.id;
    const other = await client(svc.url, { 'Api-Key': m.apiKey, 'Merchant-Id': sibling })('GET', `/v1/payments/${id}/status`);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('payment_not_found');
    expect((await m.asMerchant('GET', '/v1/payments/pay_nope')).body.code).toBe('payment_not_found');
  });
  ownServiceIt('reads arriving together (one statement, src/db/coalesce.ts) each get their own payment and answer', async () => {
    const ids = [
      await newPayment({ amount: usd('1001') }),
      await newPayment({ amount: usd('1002') }),
      await newPayment({ amount: usd('1003') }),
    ];
    expect((await m.asMerchant('POST', `/v1/payments/${ids[2]}/cancel`)).status).toBe(200);
    const intruder = client(svc.url, { 'Api-Key': (await newAccount('Reader')).apiKey, 'Merchant-Id': m.merchantId });
    const asks = Array.from({ length: 45 }, (_, i) => i % 5);
    const waiting = () => scrapedValue(svc.directUrl, 'paygate_payment_reads_waiting');
    // With the assets table locked (the read joins it; the metrics scraped meanwhile do not read it), the first two
    // reads take both statements of reads and wait; the rest wait for them, and go together once the lock is let go.
    const trx = await svc.db.transaction();
    let answers: Awaited<ReturnType<typeof create>>[];
    try {
      await trx.raw('LOCK TABLE assets IN ACCESS EXCLUSIVE MODE');
      const sent = Promise.all(
        asks.map((k) =>
          k < 3
            ? m.asMerchant('GET', `/v1/payments/${ids[k]}`)
            : k === 3
              ? intruder('GET', `/v1/payments/${ids[0]}`)
              : m.asMerchant('GET', '/v1/payments/pay_unknown'),
        ),
      );
      expect(await eventually(waiting, (n) => n >= asks.length - 2, 10_000)).toBeGreaterThanOrEqual(asks.length - 2);
      await trx.commit();
      answers = await sent;
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
    }
    const expected = (k: number) =>
      k < 3
        ? [200, ids[k], ['requires_action', 'requires_action', 'cancelled'][k], String(1001 + k)]
        : [k === 3 ? 403 : 404, undefined, undefined, undefined];
    expect(answers.map((r) => [r.status, r.body.paymentId, r.body.status, r.body.amount?.value])).toEqual(asks.map(expected));
  });

  it('an id with a NUL (schema-valid) is an unknown payment: 404, not 400 (PostgreSQL text cannot hold NUL)', async () => {
    for (const [method, path] of [
      ['GET', '/v1/payments/pay_%00x'],
      ['GET', '/v1/payments/%00/status'],
      ['POST', '/v1/payments/pay_%00/cancel'],
    ]) {
      const r = await m.asMerchant(method, path);
      expect([path, r.status, r.body.code]).toEqual([path, 404, 'payment_not_found']);
    }
  });
});

describe('cancel (merchant)', () => {
  it('cancels from requires_action only, writing one event', async () => {
    const id = await newPayment();
    const r = await m.asMerchant('POST', `/v1/payments/${id}/cancel`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      paymentId: id,
      status: 'cancelled',
      cancelledReason: 'cancelled_by_merchant',
      cancelledAt: expect.any(String),
    });
    const again = await m.asMerchant('POST', `/v1/payments/${id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_state');
    expect((await m.asMerchant('GET', `/v1/payments/${id}/status`)).body).toMatchObject({
      status: 'cancelled',
      isFinal: true,
      pollInMs: null,
    });
    expect((await events(id)).map((e: { type: string; version: number }) => [e.type, e.version])).toEqual([
      ['payment.created', 1],
      ['payment.cancelled', 2],
    ]);
  });
});

describe('stored events', () => {
  it("each change's event is the payment as that change left it: the record, its preview snapshot, and the row", async () => {
    // Paid on chain, settled to the merchant, refunded; cancelled; declined by the buyer; expired.
    const paid = await newPayment();
    await paySucceeded(paid, m.accountId);
    await eventually(
      async () => (await svc.db('payments').where({ id: paid }).first()).settled_at,
      (at) => at !== null,
      20_000,
    );
    expect((await m.asMerchant('POST', '/v1/refunds', { body: { paymentId: paid } })).status).toBe(200);
    const cancelled = await newPayment();
    expect((await m.asMerchant('POST', `/v1/payments/${cancelled}/cancel`)).status).toBe(200);
    const declined = await newPayment();
    const gw = client(svc.url, { 'Api-Key': walletKeys.get(m.accountId)! });
    expect((await gw('POST', `/v1/gateway/payment/${declined}/decline`)).status).toBe(200);
    const expired = await newPayment({ expiresAt: Math.floor(Date.now() / 1000) + 60 });
    await svc
      .db('payments')
      .where({ id: expired })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await m.asMerchant('GET', `/v1/payments/${expired}/status`)).body.status).toBe('expired');

    const kinds = async (id: string) => {
      const stored = await events(id);
      for (const e of stored) {
        expect(e.record.version).toBe(e.version);
        expect(e.data).toBeNull(); // no longer written (migration 20261201090100): every process reads `record`
        expect(e.dispatched_at).not.toBeNull(); // never taken by a dispatcher of the release before the outbox
      }
      // The newest event is the row as it is now, field for field.
      const now = (await findPayment(svc.db, id))!;
      expect(stored.at(-1).record).toEqual(paymentEventRecord(now.payment, now.asset));
      return stored.map((e: { type: string; record: { status: string } }) => [e.type, e.record.status]);
    };
    expect(await kinds(paid)).toEqual([
      ['payment.created', 'requires_action'],
      ['payment.processing', 'processing'],
      ['payment.succeeded', 'succeeded'],
      ['payment.settled', 'succeeded'],
      ['payment.refunded', 'succeeded'],
    ]);
    expect(await kinds(cancelled)).toEqual([
      ['payment.created', 'requires_action'],
      ['payment.cancelled', 'cancelled'],
    ]);
    expect(await kinds(declined)).toEqual([
      ['payment.created', 'requires_action'],
      ['payment.failed', 'failed'],
    ]);
    expect(await kinds(expired)).toEqual([
      ['payment.created', 'requires_action'],
      ['payment.expired', 'expired'],
    ]);
    // Each event of the paid payment carries what was known at its change.
    const row = await svc.db('payments').where({ id: paid }).first();
    const [, processing, succeeded, settled, refunded] = (await events(paid)).map((e: { record: object }) => e.record);
    const token = { tokenAsset: row.token_asset, tokenAmount: row.token_amount };
    expect(processing).toMatchObject({ ...token, txHash: null, refundedAt: null });
    expect(succeeded).toMatchObject({ ...token, txHash: row.tx_hash, refundedAt: null });
    expect(settled).toMatchObject({ ...token, txHash: row.tx_hash, refundedAt: null });
    expect(refunded).toMatchObject({ ...token, txHash: row.tx_hash, refundedAt: (row.refunded_at as Date).toISOString() });
    expect((await events(cancelled)).at(-1).record.cancelledReason).toBe('cancelled_by_merchant');
    expect((await events(declined)).at(-1).record.failureCode).toBe('declined_user');
  });
});

describe('expiry', () => {
  it('a reader never sees a stale status: past expiresAt is expired at once', async () => {
    const id = await newPayment({ expiresAt: Math.floor(Date.now() / 1000) + 1 });
    await svc
      .db('payments')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) }); // skip the wait
    const s = await m.asMerchant('GET', `/v1/payments/${id}/status`);
    expect(s.body).toMatchObject({ status: 'expired', isFinal: true, pollInMs: null });
    expect((await m.asMerchant('POST', `/v1/payments/${id}/cancel`)).body.code).toBe('invalid_state');
    expect((await events(id)).map((e: { type: string }) => e.type)).toEqual(['payment.created', 'payment.expired']);
  });
  it('the sweeper expires payments nobody looks at', async () => {
    const id = await newPayment({ expiresAt: Math.floor(Date.now() / 1000) + 1 });
    for (let i = 0; i < 50 && (await svc.db('payments').where({ id }).first()).status !== 'expired'; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect((await svc.db('payments').where({ id }).first()).status).toBe('expired');
    expect((await events(id)).map((e: { type: string }) => e.type)).toEqual(['payment.created', 'payment.expired']);
  });
});

describe('long-poll status', () => {
  it('answers at once for a final payment', async () => {
    const id = await newPayment();
    await m.asMerchant('POST', `/v1/payments/${id}/cancel`);
    const t = Date.now();
    const r = await m.asMerchant('GET', `/v1/payments/${id}/status?maxPollMs=20000`);
    expect(r.body.status).toBe('cancelled');
    expect(Date.now() - t).toBeLessThan(15000);
  });
  ownServiceIt('holds until the payment changes, including a change made by another process', async () => {
    const second = await startTestService(); // another service process on the same database
    try {
      const id = await newPayment();
      const t = Date.now();
      const poll = m.asMerchant('GET', `/v1/payments/${id}/status?maxPollMs=25000`);
      await new Promise((r) => setTimeout(r, 300));
      const cancel = await client(second.url, { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId })('POST', `/v1/payments/${id}/cancel`);
      expect(cancel.status).toBe(200);
      const r = await poll;
      expect(r.body).toMatchObject({ status: 'cancelled', isFinal: true });
      expect(Date.now() - t).toBeLessThan(20000); // woken, not timed out
    } finally {
      await second.close();
    }
  });
  ownServiceIt('graceful shutdown answers waiting long-polls instead of dropping them', async () => {
    const third = await startTestService();
    const id = await newPayment();
    const poll = client(third.url, { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId })(
      'GET',
      `/v1/payments/${id}/status?maxPollMs=25000`,
    );
    await new Promise((r) => setTimeout(r, 300));
    await third.close();
    const r = await poll;
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('requires_action');
  });
  it('waiters woken by one change, at both API versions, each get the changed status, their own request id and their version', async () => {
    // One read and one body per version are shared by the waiters one change wakes (src/http/sharedBody.ts):
    // each answer is still its own request's, and the body is what an unshared read of the changed payment gives.
    const id = await newPayment();
    const preview = { 'PAY-Version': '2026-02-19.preview' };
    const path = `/v1/payments/${id}/status?maxPollMs=25000`;
    const polls = [...[1, 2, 3].map(() => m.asMerchant('GET', path)), ...[1, 2].map(() => m.asMerchant('GET', path, { headers: preview }))];
    await new Promise((r) => setTimeout(r, 500));
    expect((await m.asMerchant('POST', `/v1/payments/${id}/cancel`)).status).toBe(200);
    const answers = await Promise.all(polls);
    const stable = await m.asMerchant('GET', `/v1/payments/${id}/status`);
    const previewNow = await m.asMerchant('GET', `/v1/payments/${id}/status`, { headers: preview });
    for (const [i, r] of answers.entries()) {
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: 'cancelled', isFinal: true });
      expect(r.text).toBe(i < 3 ? stable.text : previewNow.text);
      expect(r.headers.get('pay-version')).toBe(i < 3 ? stable.headers.get('pay-version') : '2026-02-19.preview');
    }
    expect(new Set(answers.map((r) => r.headers.get('request-id'))).size).toBe(answers.length);
  });
  it('wakes at expiry', async () => {
    const id = await newPayment({ expiresAt: Math.floor(Date.now() / 1000) + 2 });
    const r = await m.asMerchant('GET', `/v1/payments/${id}/status?maxPollMs=25000`);
    expect(r.body.status).toBe('expired');
  });
  it('returns the unchanged status when the wait runs out, and refuses a negative wait', async () => {
    const id = await newPayment();
    expect((await m.asMerchant('GET', `/v1/payments/${id}/status?maxPollMs=300`)).body.status).toBe('requires_action');
    const neg = await direct('GET', `/v1/payments/${id}/status?maxPollMs=-1`);
    expect(neg.status).toBe(400);
    expect(neg.body.code).toBe('params_validation');
  });
});

describe('POST /v1/refunds', () => {
  it('only a succeeded payment can be refunded', async () => {
    const id = await newPayment();
    const r = await m.asMerchant('POST', '/v1/refunds', { body: { paymentId: id } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('payment_not_succeeded');
    expect((await m.asMerchant('POST', '/v1/refunds', { body: { paymentId: 'pay_nope' } })).status).toBe(404);
  });
  it('50 concurrent refunds of one payment: exactly one succeeds, the rest 409 already_refunded', async () => {
    const id = await newPayment();
    await paySucceeded(id, m.accountId);
    const results = await Promise.all(Array.from({ length: 50 }, () => m.asMerchant('POST', '/v1/refunds', { body: { paymentId: id } })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0].body).toEqual({ paymentId: id, refundedAt: expect.any(String) });
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('already_refunded');
    }
    expect((await m.asMerchant('GET', `/v1/payments/${id}`)).body.refundedAt).toBe(ok[0].body.refundedAt);
    expect((await events(id)).filter((e: { type: string }) => e.type === 'payment.refunded')).toHaveLength(1);
  });
});

describe('lists', () => {
  let shop: Awaited<ReturnType<typeof merchantWithSettlement>>;
  let second: string;
  const ids: string[] = [];
  beforeAll(async () => {
    shop = await merchantWithSettlement(svc, 'Lister');
    const s2 = await shop.api('POST', '/v1/merchants', {
      body: { merchantName: 'Second', merchantEmail: 's@x.io' },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    second = s2.body.merchant.id;
    await shop.api('POST', `/v1/merchants/${second}/settlements/crypto`, {
      body: {
        settlements: [
          {
            asset: 'eip155:10/erc20:0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85',
            destination: 'eip155:10:0x52908400098527886E0F7030069857D2E4169EE7',
          },
        ],
      },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    for (let i = 0; i < 12; i++) {
      const r = await shop.asMerchant('POST', '/v1/payments', {
        body: { referenceId: `ORD-${i % 3 === 0 ? 'A' : 'B'}-${i}`, amount: usd(String(100 + i)) },
      });
      ids.push(r.body.paymentId);
    }
    const other = await client(svc.url, { 'Api-Key': shop.apiKey, 'Merchant-Id': second })('POST', '/v1/payments', {
      body: { referenceId: 'SECOND-1', amount: usd('999') },
    });
    ids.push(other.body.paymentId);
    await shop.asMerchant('POST', `/v1/payments/${ids[0]}/cancel`);
    await paySucceeded(ids[1], shop.accountId);
    await paySucceeded(ids[2], shop.accountId);
  }, 60_000); // the admin command and two payments paid on chain: slow on a busy machine

  it('GET /v1/payments lists the whole account newest first, with stats', async () => {
    const r = await shop.api('GET', '/v1/payments');
    expect(r.status).toBe(200);
    expect(r.body.data.map((p: { paymentId: string }) => p.paymentId)).toEqual([...ids].reverse());
    expect(r.body.data[0]).toMatchObject({
      paymentId: ids[12],
      merchant: { id: second, name: 'Second' },
      referenceId: 'SECOND-1',
      status: 'requires_action',
      isTerminal: false,
      fiatAmount: { unit: 'iso4217/USD', value: '999' },
    });
    expect(r.body.stats).toEqual({
      totalRevenue: [{ amount: String(101 + 102), currency: 'USD' }],
      totalTransactions: 2,
      totalCustomers: 1,
    });
    expect(r.body.nextCursor).toBeNull();
  });

  it('filters by merchant, status (repeatable), referenceId substring, and time', async () => {
    const byMerchant = await shop.api('GET', `/v1/payments?merchantId=${second}`);
    expect(byMerchant.body.data.map((p: { paymentId: string }) => p.paymentId)).toEqual([ids[12]]);
    const st = await shop.api('GET', '/v1/payments?status=cancelled&status=succeeded');
    expect(st.body.data.map((p: { paymentId: string }) => p.paymentId).sort()).toEqual([ids[0], ids[1], ids[2]].sort());
    const ref = await shop.api('GET', '/v1/payments?referenceId=-A-');
    expect(ref.body.data).toHaveLength(4);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await shop.api('GET', `/v1/payments?startTs=${future}`)).body.data).toEqual([]);
    expect((await shop.api('GET', `/v1/payments?endTs=${future}`)).body.data).toHaveLength(13);
    const intruder = await newAccount('ListPeek');
    expect((await client(svc.url, { 'Api-Key': intruder.apiKey })('GET', `/v1/payments?merchantId=${second}`)).status).toBe(403);
  });

  it('a merchantId filter with a NUL (schema-valid; found by Schemathesis) matches no merchant: 404 like any unknown id', async () => {
    for (const qs of ['merchantId=%00', 'merchantId=mrch_%00abc', `merchantId=${second}%00`]) {
      const r = await shop.api('GET', `/v1/payments?${qs}`);
      expect([qs, r.status, r.body.code]).toEqual([qs, 404, 'merchant_not_found']);
    }
    const unknown = await shop.api('GET', '/v1/payments?merchantId=mrch_unknown');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'merchant_not_found']);
  });

  it('pages with stable cursors under inserts, in any sort', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: { status: number; body: { data: { paymentId: string }[]; nextCursor: string | null } } = await shop.asMerchant(
        'GET',
        `/v1/merchants/payments?limit=5&sortBy=amount&sortDir=asc${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((p) => p.paymentId));
      cursor = r.body.nextCursor;
      await shop.asMerchant('POST', '/v1/payments', { body: { referenceId: 'late', amount: usd('1') } });
    } while (cursor);
    expect(seen.slice(0, 12)).toEqual(ids.slice(0, 12));
    const mismatch = await shop.asMerchant(
      'GET',
      `/v1/merchants/payments?limit=5&sortBy=amount&sortDir=desc&cursor=${
        (await shop.asMerchant('GET', '/v1/merchants/payments?limit=1&sortBy=amount&sortDir=asc')).body.nextCursor
      }`,
    );
    expect(mismatch.status).toBe(400);
  });

  it('the deprecated per-merchant path keeps the snake_case shape', async () => {
    const r = await shop.api('GET', `/v1/merchants/${second}/payments`);
    expect(r.status).toBe(200);
    expect(r.body.data[0]).toMatchObject({
      payment_id: ids[12],
      merchant_id: second,
      reference_id: 'SECOND-1',
      status: 'requires_action',
      is_terminal: false,
      fiat_amount: '999',
      fiat_currency: 'USD',
    });
    expect(r.body.stats).toMatchObject({ total_transactions: 0, total_customers: 0 });
  });

  it("a deleted merchant: its path is 404 (found by the contract gate's use-after-free check); its payments stay listed as the account's", async () => {
    const gone = await merchantWithSettlement(svc, 'Gone');
    const r = await gone.asMerchant('POST', '/v1/payments', { body: { referenceId: 'gone-1', amount: usd() } });
    expect(r.status).toBe(201);
    expect((await gone.api('DELETE', `/v1/merchants/${gone.merchantId}`)).status).toBe(200);
    const nested = await gone.api('GET', `/v1/merchants/${gone.merchantId}/payments`);
    expect([nested.status, nested.body.code]).toEqual([404, 'merchant_not_found']);
    const listed = await gone.api('GET', `/v1/payments?merchantId=${gone.merchantId}`);
    expect([listed.status, listed.body.data.map((p: any) => p.paymentId)]).toEqual([200, [r.body.paymentId]]);
    const byHeader = await gone.asMerchant('GET', '/v1/merchants/payments');
    expect([byHeader.status, byHeader.body.data.map((p: any) => p.paymentId)]).toEqual([200, [r.body.paymentId]]);
  });

  it.each([
    ['limit=0'],
    ['limit=201'],
    ['status=paid'],
    ['sortBy=name'],
    ['cursor=zzz'],
    ['startTs=abc'],
    ['network=Z%C2%AF%00'],
    ['startTs=9223372036854775807'],
    [`cursor=${Buffer.from('{"s":"createdAt","d":"desc","i":"pay_x","v":"12"}').toString('base64url')}`],
  ])('refuses %s with 400', async (qs) => {
    const r = await client(svc.directUrl, { 'Api-Key': shop.apiKey })('GET', `/v1/payments?${qs}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('params_validation');
  });
});

describe('deprecated paths of the hosted e-commerce guides', () => {
  it('POST /v1/merchant/payment and GET /v1/merchant/payment/{id}/status are createPayment and getPaymentStatus', async () => {
    const key = uniqueKey('alias');
    const r = await m.asMerchant('POST', '/v1/merchant/payment', {
      body: { referenceId: 'order-alias', amount: usd('1250') },
      headers: { 'Idempotency-Key': key },
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      paymentId: expect.stringMatching(/^pay_/),
      status: 'requires_action',
      expiresAt: expect.any(Number),
      isFinal: false,
      pollInMs: expect.any(Number),
      gatewayUrl: `${BASE}/?pid=${r.body.paymentId}`,
    });
    const row = await svc.db('payments').where({ id: r.body.paymentId }).first();
    expect(row).toMatchObject({ merchant_id: m.merchantId, reference_id: 'order-alias', amount_minor: '1250', status: 'requires_action' });
    // The same idempotency: a retry replays, and the payment exists once.
    const again = await m.asMerchant('POST', '/v1/merchant/payment', {
      body: { referenceId: 'order-alias', amount: usd('1250') },
      headers: { 'Idempotency-Key': key },
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.paymentId).toBe(r.body.paymentId);
    expect(Number((await svc.db('payments').where({ merchant_id: m.merchantId, reference_id: 'order-alias' }).count('* as n'))[0].n)).toBe(
      1,
    );

    const s = await m.asMerchant('GET', `/v1/merchant/payment/${r.body.paymentId}/status`);
    expect(s.status).toBe(200);
    expect(s.body).toEqual((await m.asMerchant('GET', `/v1/payments/${r.body.paymentId}/status`)).body);
    expect(s.body).toMatchObject({ status: 'requires_action', isFinal: false });
    // Same errors as the operations they alias: no Merchant-Id, another account's payment.
    const noMerchant = await client(svc.directUrl, { 'Api-Key': m.apiKey })('POST', '/v1/merchant/payment', {
      body: { referenceId: 'x', amount: usd() },
    });
    expect(noMerchant.status).toBe(401);
    expect(noMerchant.body.code).toBe('missing_merchant_id');
    const other = await merchantWithSettlement(svc, 'Alias other');
    const foreign = await other.asMerchant('GET', `/v1/merchant/payment/${r.body.paymentId}/status`);
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('forbidden');
  });
});

describe('integer query values checked on their raw text (found by the contract gate)', () => {
  it('maxPollMs=2^63 is 400 params_validation; 2^63-1 is valid (capped), on every status path', async () => {
    const id = await newPayment();
    expect((await m.asMerchant('POST', `/v1/payments/${id}/cancel`)).status).toBe(200); // final: no wait
    const gw = client(svc.directUrl, { 'Api-Key': m.apiKey });
    for (const [call, path] of [
      [direct, `/v1/payments/${id}/status`],
      [direct, `/v1/merchant/payment/${id}/status`],
      [gw, `/v1/gateway/payment/${id}/status`],
    ] as const) {
      const over = await call('GET', `${path}?maxPollMs=9223372036854775808`);
      expect(over.status).toBe(400);
      expect(over.body).toMatchObject({
        code: 'params_validation',
        issues: [{ field: 'maxPollMs', message: expect.stringContaining('int64') }],
      });
      const max = await call('GET', `${path}?maxPollMs=9223372036854775807`);
      expect(max.status).toBe(200);
      expect(max.body).toMatchObject({ status: 'cancelled', isFinal: true });
    }
  });

  // Found by the contract gate: `maxPollMs=3.402823466e%2B38` on a confirm was answered 200, since the
  // number of that text is an integer. Sent direct: Prism rejects it before the service sees it.
  it('an integer query value not written in decimal digits is 400 params_validation (exponent, fraction, blank)', async () => {
    const id = await newPayment();
    const gw = client(svc.directUrl, { 'Api-Key': m.apiKey });
    for (const [call, method, path, name, value] of [
      [gw, 'POST', `/v1/gateway/payment/${id}/confirm`, 'maxPollMs', '3.402823466e%2B38'],
      [direct, 'GET', `/v1/payments/${id}/status`, 'maxPollMs', '1e3'],
      [gw, 'GET', `/v1/gateway/payment/${id}/status`, 'maxPollMs', '100.0'],
      [direct, 'GET', '/v1/payments', 'limit', '1e1'],
      [direct, 'GET', '/v1/payments', 'limit', '%2010'],
    ] as const) {
      const r = await call(method, `${path}?${name}=${value}`, method === 'POST' ? { body: { optionId: 'opt_x', results: [] } } : {});
      expect([path, r.status]).toEqual([path, 400]);
      expect(r.body).toMatchObject({
        code: 'params_validation',
        issues: [{ field: name, message: expect.stringContaining('decimal digits') }],
      });
    }
    // The validator drops the first `?` of the query (openapi-backend): `maxPollMs?=` is maxPollMs to it, and so here.
    const sneaky = await direct('GET', `/v1/payments/${id}/status?maxPollMs?=1e3`);
    expect(sneaky.status).toBe(400);
    expect(sneaky.body).toMatchObject({ code: 'params_validation', issues: [{ field: 'maxPollMs' }] });
    expect((await direct('GET', '/v1/payments?limit=10')).status).toBe(200);
    expect((await direct('GET', '/v1/payments?limit=%2B10')).status).toBe(200); // "+10": a sign is allowed
    expect((await direct('GET', `/v1/payments/${id}/status?maxPollMs=0`)).status).toBe(200);
  });
});
