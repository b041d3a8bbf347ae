import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { admin, client, startTestService, TestService } from '../support/service';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { DEVNET_USDC, USDC_TOKEN, balanceOf, newBuyer, receiptOf } from '../support/chain';
import { loadConfig } from '../../src/config';
import { unseal } from '../../src/domain/sealed';

// The wallet side, played by a viem local account funded on the development chain, over HTTP only.
// Every payment here moves real tokens on anvil.

const stranger = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
let buyer: PrivateKeyAccount;
let BUYER_BASE: string;

let svc: TestService;
let m: Awaited<ReturnType<typeof merchantWithSettlement>>;
let gw: ReturnType<typeof client>;

beforeAll(async () => {
  svc = await startTestService(); // PUBLIC_BASE_URL https://pay.example.com (service-env.json)
  buyer = await newBuyer(1_000_000_000n); // USDC 1,000.00
  BUYER_BASE = `eip155:31337:${buyer.address}`;
  m = await merchantWithSettlement(svc, 'Gateway Shop');
  const wallet = await admin('keys', 'create', '--account', m.accountId, '--type', 'wallet');
  gw = client(svc.url, { 'Api-Key': wallet.apiKey });
});
afterAll(() => svc.close());

const newPayment = async (value = '1000', asMerchant = m.asMerchant) => {
  const r = await asMerchant('POST', '/v1/payments', { body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value } } });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.paymentId as string;
};
const options = (id: string, accounts?: string[], c = gw) =>
  c('POST', `/v1/gateway/payment/${id}/options?includePaymentInfo=true`, { body: { accounts: accounts ?? [BUYER_BASE] } });
const firstOption = async (id: string, c = gw) => {
  const r = await options(id, [BUYER_BASE], c);
  if (r.status !== 200 || !r.body.options?.length) throw new Error(r.text);
  return r.body.options[0];
};
const signAction = (opt: any, who = buyer) => who.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
const confirm = (id: string, optionId: string, sig: string, extra: Record<string, unknown> = {}, c = gw, q = '') =>
  c('POST', `/v1/gateway/payment/${id}/confirm${q}`, { body: { optionId, results: [{ type: 'walletRpc', data: [sig] }], ...extra } });
const row = (id: string) => svc.db('payments').where({ id }).first();
const untilFinal = async (id: string) => {
  for (let i = 0; i < 20; i++) {
    const r = await gw('GET', `/v1/gateway/payment/${id}/status?maxPollMs=5000`);
    if (r.body.isFinal) return r;
  }
  throw new Error('never final');
};
const untilSettled = async (id: string) => {
  for (let i = 0; i < 100; i++) {
    const r = await m.asMerchant('GET', `/v1/payments/${id}`);
    if (r.body.settlement) return r.body;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('never settled');
};
const expectRefused = async (r: { status: number; body: any }, status: number, code: string, id: string) => {
  expect({ status: r.status, code: r.body.code }).toEqual({ status, code });
  expect((await row(id)).status).toBe('requires_action');
};

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
    expect(app).toEqual({ appId: expect.stringMatching(/^app_/), clientId: expect.stringMatching(/^pgc_/) });
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
  it('a malformed account is 422 invalid_account; accounts the merchant cannot take get no option', async () => {
    const id = await newPayment();
    const bad = await options(id, [BUYER_BASE, 'eip155:31337:0xnothex']);
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('invalid_account');
    expect(bad.body.issues).toEqual([expect.objectContaining({ field: '/accounts/1' })]);
    const none = await options(id, [
      `eip155:8453:${buyer.address}`,
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv',
    ]);
    expect(none.status).toBe(200);
    expect(none.body.options).toEqual([]);
  });
  it('an expired payment is 410 payment_expired', async () => {
    const id = await newPayment();
    await svc
      .db('payments')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await options(id)).body.code).toBe('payment_expired');
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
    await expectRefused(await confirm(id, opt.id, await signAction(opt)), 404, 'option_not_found', id);
    await expectRefused(await confirm(id, 'opt_unknown', await signAction(opt)), 404, 'option_not_found', id);
  });
  it('results that are not one walletRpc signature', async () => {
    const id = await newPayment();
    const opt = await firstOption(id);
    const r = await gw('POST', `/v1/gateway/payment/${id}/confirm`, { body: { optionId: opt.id, results: [] } });
    await expectRefused(r, 400, 'params_validation', id);
  });
});

describe('data collection above the threshold', () => {
  let shop: Awaited<ReturnType<typeof merchantWithSettlement>>;
  const data = { fullName: 'Ada Lovelace', dob: '1815-12-10', porCountry: 'GB', porAddress: '12 St James Sq, London', tosConfirmed: true };
  beforeAll(async () => {
    shop = await merchantWithSettlement(svc, 'Big Ticket');
    expect(await admin('accounts', 'set-threshold', '--account', shop.accountId, '--minor', '500')).toEqual({
      accountId: shop.accountId,
      collectDataThresholdMinor: '500',
    });
  });

  it('offers collectData (fields, the schema, the page url) and requires valid data at confirm', async () => {
    const id = await newPayment('1000', shop.asMerchant);
    const o = await options(id);
    expect(o.body.collectData).toMatchObject({
      fields: expect.arrayContaining([
        expect.objectContaining({ id: 'fullName', required: true, type: 'text' }),
        expect.objectContaining({ id: 'dob', type: 'date' }),
      ]),
      schema: { type: 'object', additionalProperties: false, required: ['fullName', 'dob', 'tosConfirmed'] },
      // The link's token is this wallet's for this payment (src/domain/collectLink.ts).
      url: expect.stringMatching(
        new RegExp(`^https://pay\\.example\\.com/collect\\?pid=${id}&accounts=${encodeURIComponent(BUYER_BASE)}&token=[A-Za-z0-9_-]{43}$`),
      ),
    });
    const opt = o.body.options[0];
    expect(opt.collectData).toEqual(o.body.collectData);
    const sig = await signAction(opt);
    await expectRefused(await confirm(id, opt.id, sig), 400, 'collect_data_required', id);
    const bad = await confirm(id, opt.id, sig, { collectedData: { ...data, dob: '10/12/1815', tosConfirmed: false } });
    await expectRefused(bad, 400, 'params_validation', id);
    expect(bad.body.issues.map((i: any) => i.field).sort()).toEqual(['/collectedData/dob', '/collectedData/tosConfirmed']);
    const noPlace = await confirm(id, opt.id, sig, { collectedData: { fullName: 'A', dob: '2000-01-01', tosConfirmed: true } });
    await expectRefused(noPlace, 400, 'params_validation', id);

    const fields = { fields: Object.entries(data).map(([fid, value]) => ({ id: fid, value })) };
    const ok = await confirm(id, opt.id, sig, { collectedData: fields });
    expect(ok.status).toBe(200);
    const stored = (await row(id)).collected_data as Buffer;
    expect(stored.length).toBeGreaterThan(28);
    expect(stored.toString('latin1')).not.toContain('Lovelace');
  });

  it('fetch requires the data, stores it (flat form), and confirm then needs it no more', async () => {
    const id = await newPayment('1000', shop.asMerchant);
    const opt = await firstOption(id);
    const none = await gw('POST', `/v1/gateway/payment/${id}/fetch`, { body: { optionId: opt.id, data: null } });
    expect(none.body.code).toBe('collect_data_required');
    const f = await gw('POST', `/v1/gateway/payment/${id}/fetch`, { body: { optionId: opt.id, data } });
    expect(f.status).toBe(200);
    expect(f.body.actions).toEqual(opt.actions);
    expect((await confirm(id, opt.id, await signAction(opt))).body.status).toBe('processing');
  });

  // The service's key (the built-in development key in tests): what is sealed can be read back.
  // Each value is sealed for its row: a payment's for payments.collected_data, an option's for payment_options.
  const opened = (sealed: Buffer | null, table: 'payments' | 'payment_options', id: string) =>
    sealed &&
    JSON.parse(
      unseal(loadConfig({ ...process.env, NODE_ENV: 'test' }).dataEncryptionKey, sealed, { table, column: 'collected_data', row: [id] }),
    );
  const asFields = (o: Record<string, unknown>) => ({ fields: Object.entries(o).map(([fid, value]) => ({ id: fid, value })) });

  it('a field id __proto__ (or any unknown id) is 400 params_validation with issues; nothing is sealed', async () => {
    const id = await newPayment('1000', shop.asMerchant);
    const opt = await firstOption(id);
    const sig = await signAction(opt);
    // Before the fix the data landed on the record's prototype: Ajv saw valid data and `{}` was sealed.
    const proto = await confirm(id, opt.id, sig, { collectedData: { fields: [{ id: '__proto__', value: data }] } });
    await expectRefused(proto, 400, 'params_validation', id);
    expect(proto.body).toEqual({
      code: 'params_validation',
      message: expect.any(String),
      requestId: expect.stringMatching(/^req_/),
      issues: [{ field: '/collectedData/fields/0/id', message: expect.stringContaining('not a known field') }],
    });
    const mixed = await confirm(id, opt.id, sig, {
      collectedData: { fields: [...asFields(data).fields, { id: 'nickname', value: 'Ada' }, { id: 'dob', value: '1815-12-11' }] },
    });
    await expectRefused(mixed, 400, 'params_validation', id);
    expect(mixed.body.issues.map((i: any) => i.field)).toEqual(['/collectedData/fields/5/id', '/collectedData/fields/6/id']);
    // The flat form, with __proto__ as an own key of the JSON object.
    const flat = await gw('POST', `/v1/gateway/payment/${id}/confirm`, {
      raw: JSON.stringify({ optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] }).replace(
        /}$/,
        `,"collectedData":{"__proto__":${JSON.stringify(data)}}}`,
      ),
      headers: { 'content-type': 'application/json' },
    });
    await expectRefused(flat, 400, 'params_validation', id);
    expect(flat.body.issues).toEqual([{ field: '/collectedData/__proto__', message: expect.stringContaining('not a known field') }]);
    expect((await row(id)).collected_data).toBeNull();

    // fetch's data: refused the same way, and the option keeps no data.
    const f = await gw('POST', `/v1/gateway/payment/${id}/fetch`, {
      body: { optionId: opt.id, data: { fields: [{ id: '__proto__', value: data }] } },
    });
    expect({ status: f.status, code: f.body.code, issues: f.body.issues }).toEqual({
      status: 400,
      code: 'params_validation',
      issues: [{ field: '/data/fields/0/id', message: expect.stringContaining('not a known field') }],
    });
    expect((await svc.db('payment_options').where({ id: opt.id }).first()).collected_data).toBeNull();

    // The same data under real ids is accepted, and what is sealed is that data.
    const ok = await confirm(id, opt.id, sig, { collectedData: asFields(data) });
    expect(ok.status).toBe(200);
    expect(opened((await row(id)).collected_data, 'payments', id)).toEqual(data);
  });

  it('takes the string forms of the hosted contract ("true", a date-time) in the fields form, and seals the normalised values', async () => {
    const id = await newPayment('1000', shop.asMerchant);
    const opt = await firstOption(id);
    const strings = { ...data, tosConfirmed: 'true', dob: '1815-12-10T00:00:00.000Z' };
    const ok = await confirm(id, opt.id, await signAction(opt), { collectedData: asFields(strings) });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'processing', isFinal: false });
    expect(opened((await row(id)).collected_data, 'payments', id)).toEqual({ ...data, tosConfirmed: true, dob: '1815-12-10' });

    const id2 = await newPayment('1000', shop.asMerchant);
    const opt2 = await firstOption(id2);
    const declined = await confirm(id2, opt2.id, await signAction(opt2), { collectedData: asFields({ ...data, tosConfirmed: 'false' }) });
    await expectRefused(declined, 400, 'params_validation', id2);
    expect(declined.body.issues).toEqual([{ field: '/collectedData/tosConfirmed', message: expect.any(String) }]);
    // fetch takes them too, and confirm then needs nothing more.
    const f = await gw('POST', `/v1/gateway/payment/${id2}/fetch`, { body: { optionId: opt2.id, data: asFields(strings) } });
    expect(f.status).toBe(200);
    expect(opened((await svc.db('payment_options').where({ id: opt2.id }).first()).collected_data, 'payment_options', opt2.id)).toEqual({
      ...data,
      tosConfirmed: true,
      dob: '1815-12-10',
    });
    expect((await confirm(id2, opt2.id, await signAction(opt2))).body.status).toBe('processing');
  });

  it('below the threshold nothing is collected', async () => {
    const id = await newPayment('499', shop.asMerchant);
    const o = await options(id);
    expect(o.body.collectData).toBeUndefined();
    expect(o.body.options[0].amount.value).toBe('4990000');
  });
});

describe('buyer cancel, decline and status', () => {
  it('cancel -> cancelled_by_user; then 409 invalid_state', async () => {
    const id = await newPayment();
    const r = await gw('POST', `/v1/gateway/payment/${id}/cancel`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ paymentId: id, status: 'cancelled', cancelledReason: 'cancelled_by_user', cancelledAt: expect.any(String) });
    expect((await gw('POST', `/v1/gateway/payment/${id}/cancel`)).body.code).toBe('invalid_state');
    expect((await gw('GET', `/v1/gateway/payment/${id}/status`)).body).toMatchObject({ status: 'cancelled', isFinal: true });
  });
  it('decline -> failed with declined_user; a confirm afterwards is 409 invalid_state', async () => {
    const id = await newPayment();
    const opt = await firstOption(id);
    const r = await gw('POST', `/v1/gateway/payment/${id}/decline`);
    expect(r.body).toEqual({ status: 'failed', isFinal: true, pollInMs: null, failureCode: 'declined_user', info: null });
    expect((await m.asMerchant('GET', `/v1/payments/${id}`)).body).toMatchObject({ status: 'failed', failureCode: 'declined_user' });
    expect((await confirm(id, opt.id, await signAction(opt))).body.code).toBe('invalid_state');
  });
  it('cancel of an expired payment is 410 payment_expired', async () => {
    const id = await newPayment();
    await svc
      .db('payments')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await gw('POST', `/v1/gateway/payment/${id}/cancel`)).body.code).toBe('payment_expired');
  });
  it('status long-polls: a confirm wakes a waiting wallet', async () => {
    const id = await newPayment();
    const opt = await firstOption(id);
    const sig = await signAction(opt);
    const started = Date.now();
    const waiting = gw('GET', `/v1/gateway/payment/${id}/status?maxPollMs=10000`);
    await new Promise((r) => setTimeout(r, 200));
    await confirm(id, opt.id, sig);
    const r = await waiting;
    expect(r.body.status).not.toBe('requires_action');
    expect(Date.now() - started).toBeLessThan(5000);
  });
  it('Idempotency-Key on confirm replays the first answer for the same caller', async () => {
    const id = await newPayment();
    const opt = await firstOption(id);
    const body = { optionId: opt.id, results: [{ type: 'walletRpc', data: [await signAction(opt)] }] };
    const key = uniqueKey('confirm');
    const a = await gw('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=5000`, { body, headers: { 'Idempotency-Key': key } });
    const b = await gw('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=5000`, { body, headers: { 'Idempotency-Key': key } });
    expect(a.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    await untilFinal(id);
  });
});
