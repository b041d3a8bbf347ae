import {
  buyer,
  BUYER_BASE,
  confirm,
  firstOption,
  gw,
  m,
  newPayment,
  signAction,
  svc,
  untilFinal,
  useGatewaySuite,
} from '../support/gatewaySuite';

// Options on a payment in a final state (issue 45), as the hosted service answers them and the wallet SDK builds
// its "already paid" screen on: 200 with `options: null`, `collectData: null` and the payment (`info`, with its
// status), at both versions, with or without includePaymentInfo. `[]` keeps meaning "nothing payable for these
// accounts" on an open payment; fetch and confirm keep refusing a final payment.

useGatewaySuite();

const VERSIONS = ['2026-02-18', '2026-02-19.preview'];
const finalIds: Record<string, string> = {};
/** An option quoted for each final payment while it was still open: fetch and confirm are asked about it after. */
const quoted: Record<string, any> = {};

beforeAll(async () => {
  // Paid: signed, confirmed and mined.
  finalIds.succeeded = await newPayment('300');
  quoted.succeeded = await firstOption(finalIds.succeeded);
  const paid = await confirm(finalIds.succeeded, quoted.succeeded.id, await signAction(quoted.succeeded));
  expect(paid.status).toBe(200);
  expect((await untilFinal(finalIds.succeeded)).body.status).toBe('succeeded');
  // Failed: the buyer declined it in the wallet.
  finalIds.failed = await newPayment('300');
  quoted.failed = await firstOption(finalIds.failed);
  expect((await gw('POST', `/v1/gateway/payment/${finalIds.failed}/decline`)).body.status).toBe('failed');
  // Expired: past its expiry (the sweeper need not have run: the expiry is read as it is asked).
  finalIds.expired = await newPayment('300');
  quoted.expired = await firstOption(finalIds.expired);
  await svc
    .db('payments')
    .where({ id: finalIds.expired })
    .update({ expires_at: new Date(Date.now() - 1000) });
  // Cancelled by the merchant; at USD 1,000.00, where an open payment's options ask for the buyer's data.
  finalIds.cancelled = await newPayment('100000');
  quoted.cancelled = await firstOption(finalIds.cancelled);
  expect(quoted.cancelled.collectData).toBeDefined();
  expect((await m.asMerchant('POST', `/v1/payments/${finalIds.cancelled}/cancel`)).status).toBe(200);
});

const cases = VERSIONS.flatMap((version) => ['succeeded', 'failed', 'expired', 'cancelled'].map((status) => [status, version]));

describe('options of a final payment', () => {
  it.each(cases)('%s (%s): 200, options null, collectData null, and the payment with its status', async (status, version) => {
    const id = finalIds[status];
    for (const query of ['', '?includePaymentInfo=true', '?includePaymentInfo=false']) {
      const r = await gw('POST', `/v1/gateway/payment/${id}/options${query}`, {
        body: { accounts: [BUYER_BASE] },
        headers: { 'PAY-Version': version },
      });
      expect({ status: r.status, version: r.headers.get('pay-version') }).toEqual({ status: 200, version });
      expect(r.body).toEqual({
        options: null,
        collectData: null,
        info: {
          status,
          amount: { unit: 'iso4217/USD', value: status === 'cancelled' ? '100000' : '300', display: expect.any(Object) },
          expiresAt: expect.any(Number),
          merchant: { name: 'Gateway Shop' },
          ...(version === VERSIONS[1] ? { livemode: true } : {}),
        },
      });
    }
  });

  it('the same answer to an account of another chain: a final payment has nothing to pay for anyone', async () => {
    const r = await gw('POST', `/v1/gateway/payment/${finalIds.succeeded}/options`, {
      body: { accounts: [`eip155:8453:${buyer.address}`] },
    });
    expect([r.status, r.body.options, r.body.info.status]).toEqual([200, null, 'succeeded']);
  });

  it('an open payment none of the accounts can pay is still [] (and no info without includePaymentInfo)', async () => {
    const id = await newPayment('300');
    const r = await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [`eip155:8453:${buyer.address}`] } });
    expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: { options: [] } });
  });

  it('a malformed account is still refused on a final payment: 400 params_validation, reason invalid_account', async () => {
    const r = await gw('POST', `/v1/gateway/payment/${finalIds.succeeded}/options`, { body: { accounts: ['eip155:31337:0xnothex'] } });
    expect([r.status, r.body.code, r.body.reason]).toEqual([400, 'params_validation', 'invalid_account']);
  });
});

describe('fetch and confirm of a final payment keep refusing', () => {
  it.each([
    ['succeeded', 409, 'invalid_state'],
    ['failed', 409, 'invalid_state'],
    ['expired', 410, 'payment_expired'],
    ['cancelled', 409, 'invalid_state'],
  ])('%s: fetch %i %s', async (status, code, name) => {
    const id = finalIds[status];
    const f = await gw('POST', `/v1/gateway/payment/${id}/fetch`, { body: { optionId: quoted[status].id, data: null } });
    expect([f.status, f.body.code]).toEqual([code, name]);
  });

  it.each([
    ['failed', 409, 'invalid_state'],
    ['expired', 410, 'payment_expired'],
  ])('%s: confirm %i %s', async (status, code, name) => {
    const id = finalIds[status];
    const c = await confirm(id, quoted[status].id, await signAction(quoted[status]));
    expect([c.status, c.body.code]).toEqual([code, name]);
  });
});
