import { admin, client, Res } from '../support/service';
import { merchantWithSettlement, uniqueKey, WALLET } from '../support/fixtures';
import { DEVNET_USDC } from '../support/chain';
import { BUYER_BASE, confirm, firstOption, gw, m, newPayment, signAction, svc, useGatewaySuite } from '../support/gatewaySuite';

// On the hosted contract's operations, the status and code its documents give are answered, ours in `reason`
// (docs/api.md, Errors; src/http/hostedCodes.ts): 404 not_found on merchant, settlement and refund operations,
// 409 idempotency_conflict, 400 for an unknown option, missing buyer data or a malformed buyer account. Both
// versions (a key still running: idempotencyClaim.test.ts and merchants.test.ts). Our own
// operations keep ours (x402.test.ts: 422 idempotency_conflict on /x402/settle).

useGatewaySuite();

type Call = ReturnType<typeof client>;
const at =
  (version: string, c: () => Call): Call =>
  (method, path, opts = {}) =>
    c()(method, path, { ...opts, headers: { 'PAY-Version': version, ...(opts.headers ?? {}) } });
const answer = (r: Res) => ({ status: r.status, code: r.body?.code, reason: r.body?.reason });
const UNKNOWN_MERCHANT = 'mrch_doesnotexist';
const UNKNOWN_PAYMENT = 'pay_0000000000000000000000';

describe.each(['2026-02-18', '2026-02-19.preview'])('PAY-Version %s', (version) => {
  const api = at(version, () => m.api);
  const merchant = at(version, () => m.asMerchant);
  const wallet = at(version, () => gw);
  const direct = at(version, () => client(svc.directUrl, { 'Api-Key': m.apiKey }));

  it('merchant and settlement operations: 404 not_found, reason merchant_not_found or settlement_not_found', async () => {
    const base = `/v1/merchants/${UNKNOWN_MERCHANT}`;
    const notFound = { status: 404, code: 'not_found', reason: 'merchant_not_found' };
    expect(answer(await api('GET', base))).toEqual(notFound);
    expect(answer(await api('PATCH', base, { body: { merchantName: 'Nobody' } }))).toEqual(notFound);
    expect(answer(await api('DELETE', base))).toEqual(notFound);
    expect(answer(await api('GET', `${base}/settlements`))).toEqual(notFound);
    const entry = { asset: 'eip155:31337/erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3', destination: `eip155:31337:${WALLET}` };
    const key = uniqueKey('missing');
    const created = await api('POST', `${base}/settlements/crypto`, {
      body: { settlements: [entry] },
      headers: { 'Idempotency-Key': key },
    });
    expect(answer(created)).toEqual(notFound);
    // A refusal stored under its key is replayed as it was answered.
    const replayed = await api('POST', `${base}/settlements/crypto`, {
      body: { settlements: [entry] },
      headers: { 'Idempotency-Key': key },
    });
    expect({ status: replayed.status, text: replayed.text }).toEqual({ status: 404, text: created.text });

    const own = `/v1/merchants/${m.merchantId}/settlements/crypto/crypto_doesnotexist`;
    const noSettlement = { status: 404, code: 'not_found', reason: 'settlement_not_found' };
    expect(answer(await api('PUT', own, { body: { destination: `eip155:31337:${WALLET}` } }))).toEqual(noSettlement);
    expect(answer(await api('DELETE', own))).toEqual(noSettlement);
  });

  it('refunds: an unknown payment is 404 not_found (reason payment_not_found); a body that is not JSON 400 params_validation', async () => {
    expect(answer(await merchant('POST', '/v1/refunds', { body: { paymentId: UNKNOWN_PAYMENT } }))).toEqual({
      status: 404,
      code: 'not_found',
      reason: 'payment_not_found',
    });
    const raw = { raw: '{"paymentId":', headers: { 'content-type': 'application/json', 'Merchant-Id': m.merchantId } };
    expect(answer(await direct('POST', '/v1/refunds', raw))).toEqual({ status: 400, code: 'params_validation', reason: 'invalid_params' });
    expect(answer(await direct('PATCH', `/v1/merchants/${m.merchantId}`, raw))).toEqual({
      status: 400,
      code: 'params_validation',
      reason: 'invalid_params',
    });
  });

  it('an Idempotency-Key reused with another request is 409 idempotency_conflict', async () => {
    const conflict = { status: 409, code: 'idempotency_conflict', reason: undefined };
    const key = uniqueKey('reuse');
    const one = { merchantName: 'One', merchantEmail: 'one@x.io' };
    const created = await api('POST', '/v1/merchants', { body: one, headers: { 'Idempotency-Key': key } });
    expect(created.status).toBe(201);
    expect(
      answer(await api('POST', '/v1/merchants', { body: { ...one, merchantName: 'Two' }, headers: { 'Idempotency-Key': key } })),
    ).toEqual(conflict);

    const settlementKey = uniqueKey('reuse');
    const settle = (destination: string) =>
      api('POST', `/v1/merchants/${created.body.merchant.id}/settlements/crypto`, {
        body: { settlements: [{ asset: DEVNET_USDC, destination }] },
        headers: { 'Idempotency-Key': settlementKey },
      });
    expect((await settle(`eip155:31337:${WALLET}`)).status).toBe(201);
    expect(answer(await settle('eip155:31337:0xde709f2102306220921060314715629080e2fb77'))).toEqual(conflict);

    const paymentKey = uniqueKey('reuse');
    const pay = (referenceId: string) =>
      merchant('POST', '/v1/payments', {
        body: { referenceId, amount: { unit: 'iso4217/USD', value: '100' } },
        headers: { 'Idempotency-Key': paymentKey },
      });
    expect((await pay(uniqueKey('order'))).status).toBe(201);
    expect(answer(await pay(uniqueKey('order')))).toEqual(conflict);
    // The path of the hosted e-commerce guides is the same operation, with the same answers.
    const alias = { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '100' } };
    expect(answer(await merchant('POST', '/v1/merchant/payment', { body: alias, headers: { 'Idempotency-Key': paymentKey } }))).toEqual(
      conflict,
    );

    const refundKey = uniqueKey('reuse');
    const refund = (paymentId: string) =>
      merchant('POST', '/v1/refunds', { body: { paymentId }, headers: { 'Idempotency-Key': refundKey } });
    expect(answer(await refund(await newPayment()))).toEqual({ status: 400, code: 'payment_not_succeeded', reason: undefined });
    expect(answer(await refund(await newPayment()))).toEqual(conflict);
  });

  it('gateway: a malformed account is 400 params_validation, an unknown option 400 invalid_params, ours in reason', async () => {
    const id = await newPayment();
    const bad = await wallet('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [BUYER_BASE, 'eip155:31337:0xnothex'] } });
    expect(answer(bad)).toEqual({ status: 400, code: 'params_validation', reason: 'invalid_account' });
    expect(bad.body.issues).toEqual([expect.objectContaining({ field: '/accounts/1' })]);
    const unknown = { optionId: 'opt_doesnotexist', results: [{ type: 'walletRpc', data: [`0x${'11'.repeat(65)}`] }] };
    expect(answer(await wallet('POST', `/v1/gateway/payment/${id}/confirm`, { body: unknown }))).toEqual({
      status: 400,
      code: 'invalid_params',
      reason: 'option_not_found',
    });
    expect(answer(await wallet('POST', `/v1/gateway/payment/${id}/fetch`, { body: { optionId: 'opt_doesnotexist', data: null } }))).toEqual(
      {
        status: 400,
        code: 'invalid_params',
        reason: 'option_not_found',
      },
    );
    // Buyer data the option needs, not sent: 400 invalid_params, reason collect_data_required.
    const shop = await merchantWithSettlement(svc, 'Collecting');
    await admin('accounts', 'set-threshold', '--account', shop.accountId, '--minor', '500');
    const big = await newPayment('1000', shop.asMerchant);
    const [opt] = (await wallet('POST', `/v1/gateway/payment/${big}/options`, { body: { accounts: [BUYER_BASE] } })).body.options;
    expect(answer(await wallet('POST', `/v1/gateway/payment/${big}/fetch`, { body: { optionId: opt.id, data: null } }))).toEqual({
      status: 400,
      code: 'invalid_params',
      reason: 'collect_data_required',
    });
    // Codes the hosted list has stay as they are.
    expect(answer(await wallet('GET', `/v1/gateway/payment/${UNKNOWN_PAYMENT}`))).toEqual({
      status: 404,
      code: 'payment_not_found',
      reason: undefined,
    });
  });

  it('takes null where the hosted contract allows it: expiresAt and checkout on creation, collectedData on confirm', async () => {
    const body = { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '100' }, expiresAt: null };
    const created = await merchant('POST', '/v1/payments', { body: version.endsWith('.preview') ? { ...body, checkout: null } : body });
    expect(created.status).toBe(201);
    expect(created.body.expiresAt - Math.floor(Date.now() / 1000)).toBeGreaterThan(60); // the default expiry
    const opt = await firstOption(created.body.paymentId);
    const confirmed = await confirm(created.body.paymentId, opt.id, await signAction(opt), { collectedData: null }, wallet);
    expect(confirmed.status).toBe(200);
    expect(['processing', 'succeeded']).toContain(confirmed.body.status);
  });
});
