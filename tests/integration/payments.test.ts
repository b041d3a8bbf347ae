import { findEvent } from '../../src/db/webhooks';
import { renderEvent } from '../../src/wire/events';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { BASE, create, direct, events, m, newPayment, svc, usd, usePaymentsSuite } from '../support/paymentsSuite';
import { client, newAccount } from '../support/service';

usePaymentsSuite();

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
      refunds: [],
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
