import { findPayment } from '../../src/db/payments';
import { paymentEventRecord } from '../support/eventRecord';
import { eventually } from '../support/eventually';
import { direct, events, m, newPayment, paySucceeded, svc, usd, usePaymentsSuite, walletKeys } from '../support/paymentsSuite';
import { client } from '../support/service';

usePaymentsSuite();

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
      ['refund.created', 'succeeded'],
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
    const [, processing, succeeded, settled, refundCreated, refunded] = (await events(paid)).map((e: { record: object }) => e.record);
    const token = { tokenAsset: row.token_asset, tokenAmount: row.token_amount };
    expect(processing).toMatchObject({ ...token, txHash: null, refundedAt: null });
    expect(succeeded).toMatchObject({ ...token, txHash: row.tx_hash, refundedAt: null });
    expect(settled).toMatchObject({ ...token, txHash: row.tx_hash, refundedAt: null });
    expect(refundCreated).toMatchObject({ ...token, refundedAt: null, refund: { tokenAmount: row.token_amount } });
    expect(refunded).toMatchObject({ ...token, txHash: row.tx_hash, refundedAt: (row.refunded_at as Date).toISOString() });
    expect((await events(cancelled)).at(-1).record.cancelledReason).toBe('cancelled_by_merchant');
    expect((await events(declined)).at(-1).record.failureCode).toBe('declined_user');
  });
});

describe('expiry', () => {
  it('a reader never sees a stale status: past expiresAt is expired at once', async () => {
    // Well ahead when sent (a whole-second time 1 s ahead may be a millisecond ahead, and past when it arrives).
    const id = await newPayment({ expiresAt: Math.floor(Date.now() / 1000) + 30 });
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
    const id = await newPayment({ expiresAt: Math.floor(Date.now() / 1000) + 2 }); // 1-2 s ahead
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
    // The one refund made, as it stands: covered by what the payment left at the collector (pending), or waiting
    // for the funding payment its settlement made necessary (requires_funding); nothing has moved yet either way.
    const made = ok[0].body.refund;
    expect(ok[0].body).toEqual({
      paymentId: id,
      refundedAt: expect.any(String),
      refund: {
        id: expect.stringMatching(/^ref_/),
        paymentId: id,
        amount: usd(),
        tokenAmount: { unit: expect.stringMatching(/^caip19\//), value: expect.stringMatching(/^[1-9][0-9]*$/) },
        status: made.status === 'pending' ? 'pending' : 'requires_funding',
        failureCode: null,
        txId: null,
        fundingInstructions:
          made.status === 'pending'
            ? null
            : { paymentId: expect.stringMatching(/^pay_/), gatewayUrl: expect.stringMatching(/\/\?pid=pay_/) },
        createdAt: expect.any(String),
      },
    });
    expect((await m.asMerchant('GET', `/v1/payments/${id}`)).body.refunds.map((r: { id: string }) => r.id)).toEqual([made.id]);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('already_refunded');
    }
    expect((await m.asMerchant('GET', `/v1/payments/${id}`)).body.refundedAt).toBe(ok[0].body.refundedAt);
    expect((await events(id)).filter((e: { type: string }) => e.type === 'payment.refunded')).toHaveLength(1);
  });
});
