import { admin, client } from '../support/service';
import { DEVNET_USDC, USDC_TOKEN, balanceOf, receiptOf } from '../support/chain';
import {
  BUYER_BASE,
  buyer,
  confirm,
  expectRefused,
  firstOption,
  gw,
  m,
  newPayment,
  options,
  row,
  signAction,
  stranger,
  svc,
  untilFinal,
  untilSettled,
  useGatewaySuite,
} from '../support/gatewaySuite';

useGatewaySuite();

describe('a wallet pays end to end', () => {
  it('options -> sign -> confirm -> long-poll -> partner sees it -> refund', async () => {
    const id = await newPayment('1000');
    const shown = await gw('GET', `/v1/gateway/payment/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      status: 'requires_action',
      amount: { unit: 'iso4217/USD', value: '1000', display: { assetSymbol: 'USD', decimals: 2 } },
      merchant: { name: 'Gateway Shop' },
    });

    const o = await options(id);
    expect(o.status).toBe(200);
    expect(o.body.collectData).toBeUndefined();
    expect(o.body.info).toMatchObject({ status: 'requires_action', merchant: { name: 'Gateway Shop' } });
    expect(o.body.options).toHaveLength(1);
    const opt = o.body.options[0];
    expect(opt).toMatchObject({
      id: expect.stringMatching(/^opt_/),
      account: BUYER_BASE,
      etaS: expect.any(Number),
      amount: {
        unit: `caip19/${DEVNET_USDC}`,
        value: '10000000',
        display: { assetSymbol: 'USDC', decimals: 6, networkName: 'paygate devnet' },
      },
    });
    const now = Date.now() / 1000;
    expect(opt.expiresAt).toBeGreaterThan(now + 100);
    expect(opt.expiresAt).toBeLessThanOrEqual(now + 121);
    const action = opt.actions[0];
    expect(action).toMatchObject({ type: 'walletRpc', data: { chain_id: 'eip155:31337', method: 'eth_signTypedData_v4' } });
    expect(action.data.params[0]).toBe(buyer.address);
    const td = JSON.parse(action.data.params[1]);
    // Collector mode: the buyer authorizes a transfer to this service's relayer, which only it may submit.
    expect(td.primaryType).toBe('ReceiveWithAuthorization');
    expect(td.domain).toEqual({ name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: USDC_TOKEN });
    const collector = td.message.to;
    expect(collector).not.toBe(m.wallet);
    expect(td.message).toMatchObject({ from: buyer.address, value: '10000000' });
    const buyerBefore = await balanceOf(buyer.address);

    const fetched = await gw('POST', `/v1/gateway/payment/${id}/fetch`, { body: { optionId: opt.id, data: null } });
    expect(fetched.body.actions).toEqual(opt.actions);

    const badKey = await confirm(id, opt.id, await signAction(opt), {}, client(svc.url, { 'Api-Key': 'pgk_wrong' }));
    await expectRefused(badKey, 401, 'invalid_api_key', id);
    const ok = await gw('POST', `/v1/gateway/payment/${id}/confirm`, {
      body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [await signAction(opt)] }] },
      headers: { 'Sdk-Name': 'test-wallet', 'Sdk-Version': '1.2.3', 'Sdk-Platform': 'node' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'processing', isFinal: false, pollInMs: expect.any(Number) });
    const confirmed = await row(id);
    expect(confirmed).toMatchObject({
      status: 'processing',
      option_id: opt.id,
      token_asset: DEVNET_USDC,
      token_amount: '10000000',
      chain_id: 'eip155:31337',
      buyer_account: BUYER_BASE,
      tx_nonce: td.message.nonce,
    });
    expect(confirmed.caller_info).toMatchObject({ keyType: 'wallet', sdkName: 'test-wallet', sdkVersion: '1.2.3', sdkPlatform: 'node' });

    const done = await untilFinal(id);
    expect(done.body).toMatchObject({
      status: 'succeeded',
      isFinal: true,
      pollInMs: null,
      info: { optionAmount: opt.amount, txId: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
    });
    // On chain: the buyer's transfer to the collector succeeded, in the transaction the API names.
    const paid = await receiptOf(done.body.info.txId);
    expect(paid.status).toBe('success');
    expect(paid.to).toBe(USDC_TOKEN.toLowerCase());
    expect(await balanceOf(buyer.address)).toBe(buyerBefore - 10_000_000n);
    // Then the settlement: amount minus fee (zero by default) from the collector to the merchant's wallet.
    const details = await untilSettled(id);
    expect(details).toMatchObject({
      status: 'succeeded',
      info: { optionAmount: opt.amount, txId: done.body.info.txId },
      settlement: {
        successful: { amount: { unit: `caip19/${DEVNET_USDC}`, value: '10000000' }, txId: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
      },
    });
    expect((await receiptOf(details.settlement.successful.txId)).status).toBe('success');
    expect(await balanceOf(m.wallet)).toBe(10_000_000n);
    const list = await m.api('GET', '/v1/payments?status=succeeded');
    expect(list.body.data.find((p: any) => p.paymentId === id)).toMatchObject({
      tokenAmount: { value: '10000000' },
      buyer: { accountCaip10: BUYER_BASE },
      transaction: { hash: done.body.info.txId },
      fees: { total: { value: '0' } },
      settlement: { settled: true, amount: { value: '10000000' }, txHash: details.settlement.successful.txId },
    });
    const txs = await svc.db('chain_transactions').where({ payment_id: id }).orderBy('id');
    expect(txs.map((t) => [t.purpose, t.status, t.sender])).toEqual([
      ['collect', 'confirmed', collector],
      ['settle', 'confirmed', collector],
    ]);
    expect(await svc.db('payment_authorizations').where({ payment_id: id })).toEqual([
      expect.objectContaining({ from_address: buyer.address, auth_nonce: td.message.nonce }),
    ]);
    const types = (await svc.db('payment_events').where({ payment_id: id }).orderBy('version')).map((e) => e.type);
    expect(types).toEqual(['payment.created', 'payment.processing', 'payment.succeeded', 'payment.settled']);

    expect((await m.asMerchant('POST', '/v1/refunds', { body: { paymentId: id } })).status).toBe(200);
    expect((await m.asMerchant('GET', `/v1/payments/${id}`)).body.refundedAt).toEqual(expect.any(String));
    expect((await m.asMerchant('POST', '/v1/refunds', { body: { paymentId: id } })).body.code).toBe('already_refunded');
  });

  it('a repeated confirm answers the same status and submits once', async () => {
    const id = await newPayment();
    const opt = await firstOption(id);
    const sig = await signAction(opt);
    expect((await confirm(id, opt.id, sig)).body.status).toBe('processing');
    const again = await confirm(id, opt.id, sig);
    expect(again.status).toBe(200);
    expect(['processing', 'succeeded']).toContain(again.body.status);
    const waited = await confirm(id, opt.id, sig, {}, gw, '?maxPollMs=10000');
    expect(waited.body.status).toBe('succeeded');
    expect(await svc.db('chain_transactions').where({ payment_id: id, purpose: 'collect' })).toHaveLength(1);
  });

  it('20 racing confirms: one submission, one processing event, the same answer for all', async () => {
    const id = await newPayment();
    const opt = await firstOption(id);
    const sig = await signAction(opt);
    const rs = await Promise.all(Array.from({ length: 20 }, () => confirm(id, opt.id, sig)));
    expect(rs.map((r) => r.status)).toEqual(Array(20).fill(200));
    for (const r of rs) expect(['processing', 'succeeded']).toContain(r.body.status);
    await untilFinal(id);
    expect(await svc.db('payment_events').where({ payment_id: id, type: 'payment.processing' })).toHaveLength(1);
    expect(await svc.db('chain_transactions').where({ payment_id: id, purpose: 'collect' })).toHaveLength(1);
    // Another option of the same payment can no longer be confirmed.
    const late = await firstOption(id).catch(() => null);
    expect(late).toBeNull();
  });

  it('accepts the buyer link, URL-encoded, in place of the id, and App-Id + Client-Id callers', async () => {
    const id = await newPayment();
    const link = encodeURIComponent(`https://pay.example.com/?pid=${id}`);
    expect((await gw('GET', `/v1/gateway/payment/${link}`)).body.status).toBe('requires_action');
    expect((await gw('GET', `/v1/gateway/payment/${encodeURIComponent(`https://evil.example/?pid=${id}`)}`)).body.code).toBe(
      'payment_not_found',
    );

    const app = await admin('apps', 'create', '--account', m.accountId, '--name', 'Test Wallet');
    expect(app).toEqual({ appId: expect.stringMatching(/^app_/), clientId: expect.stringMatching(/^pgc_/), mode: 'live' });
    const asApp = client(svc.url, { 'App-Id': app.appId, 'Client-Id': app.clientId });
    const shown = await asApp('GET', `/v1/gateway/payment/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('pay-version')).toBe('2026-02-18');
    const opt = await firstOption(id, asApp);
    expect((await confirm(id, opt.id, await signAction(opt), {}, asApp)).status).toBe(200);
    expect((await row(id)).caller_info).toMatchObject({ keyId: app.appId, keyType: 'app', appId: app.appId });
    expect((await client(svc.url, { 'App-Id': app.appId, 'Client-Id': 'pgc_wrong' })('GET', `/v1/gateway/payment/${id}`)).body.code).toBe(
      'invalid_api_key',
    );
    // Straight to the service: requests without valid credentials break the contract on purpose.
    expect((await client(svc.directUrl)('GET', `/v1/gateway/payment/${id}`)).body.code).toBe('missing_api_key');
    expect((await client(svc.directUrl, { 'App-Id': app.appId, 'Client-Id': app.clientId })('GET', '/v1/merchants')).status).toBe(401);
  });
});

describe('options', () => {
  it('a malformed account is 400 params_validation (reason invalid_account); accounts the merchant cannot take get no option', async () => {
    const id = await newPayment();
    const bad = await options(id, [BUYER_BASE, 'eip155:31337:0xnothex']);
    expect({ status: bad.status, code: bad.body.code, reason: bad.body.reason }).toEqual({
      status: 400,
      code: 'params_validation',
      reason: 'invalid_account',
    });
    expect(bad.body.issues).toEqual([expect.objectContaining({ field: '/accounts/1' })]);
    const none = await options(id, [
      `eip155:8453:${buyer.address}`,
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv',
    ]);
    expect(none.status).toBe(200);
    expect(none.body.options).toEqual([]);
  });
  it('an expired payment is 200 with options null and its status (gatewayFinalOptions.test.ts: every final state)', async () => {
    const id = await newPayment();
    await svc
      .db('payments')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const r = await options(id);
    expect([r.status, r.body.options, r.body.collectData, r.body.info.status]).toEqual([200, null, null, 'expired']);
  });
});

describe('confirm refuses, and nothing moves', () => {
  it('a signature by another key', async () => {
    const id = await newPayment();
    const opt = await firstOption(id);
    await expectRefused(await confirm(id, opt.id, await signAction(opt, stranger)), 422, 'invalid_signature', id);
  });
  it('a signature over tampered typed data (a smaller amount)', async () => {
    const id = await newPayment();
    const opt = await firstOption(id);
    const td = JSON.parse(opt.actions[0].data.params[1]);
    td.message.value = '1';
    await expectRefused(await confirm(id, opt.id, await buyer.signTypedData(td)), 422, 'invalid_signature', id);
  });
  it('a tampered or malformed signature', async () => {
    const id = await newPayment();
    const opt = await firstOption(id);
    const sig = await signAction(opt);
    await expectRefused(
      await confirm(id, opt.id, sig.slice(0, 20) + (sig[20] === 'a' ? 'b' : 'a') + sig.slice(21)),
      422,
      'invalid_signature',
      id,
    );
    await expectRefused(await confirm(id, opt.id, 'not a signature'), 422, 'invalid_signature', id);
  });
  it('an expired quote', async () => {
    const id = await newPayment();
    const opt = await firstOption(id);
    await svc
      .db('payment_options')
      .where({ id: opt.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await expectRefused(await confirm(id, opt.id, await signAction(opt)), 409, 'quote_expired', id);
  });
  it('an expired payment', async () => {
    const id = await newPayment();
    const opt = await firstOption(id);
    const sig = await signAction(opt);
    await svc
      .db('payments')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const r = await confirm(id, opt.id, sig);
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 410, code: 'payment_expired' });
    expect((await row(id)).status).toBe('expired');
  });
  it("another payment's option, or an unknown one", async () => {
    const id = await newPayment();
    const other = await newPayment();
    const opt = await firstOption(other);
    await expectRefused(await confirm(id, opt.id, await signAction(opt)), 400, 'invalid_params', id, 'option_not_found');
    await expectRefused(await confirm(id, 'opt_unknown', await signAction(opt)), 400, 'invalid_params', id, 'option_not_found');
  });
  it('results that are not one walletRpc signature', async () => {
    const id = await newPayment();
    const opt = await firstOption(id);
    const r = await gw('POST', `/v1/gateway/payment/${id}/confirm`, { body: { optionId: opt.id, results: [] } });
    await expectRefused(r, 400, 'params_validation', id);
  });
});
