import { decodePaymentResponseHeader } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { balanceOf, newBuyer, receiptOf, tokenAdmin } from '../support/chain';
import { eventually } from '../support/chainSuite';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, newKey, setAccountMode, startTestService, type TestService } from '../support/service';
import { startReceiver, type Receiver } from '../support/webhookReceiver';
import { ledgerRowsOf, NETWORK, payingFetch, resourceServer, signedBody, x402PayTo } from '../support/x402';

// The x402 v2 facilitator at <base>/x402 (docs/x402.md), paid through by the official packages on the development
// chain: tokens move on chain to payTo, each settlement is a payment with its events, one authorization moves tokens
// once however often or concurrently it is settled, and every verify refusal carries x402's reason name.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
// Every request here is the preview's (x402 and webhooks): straight to the service, as the contract gate's Prism
// chain checks the stable document too (tests/support/webhooksSuite.ts does the same).
let svc: TestService;
let rx: Receiver;
let collector: string;

type Partner = Awaited<ReturnType<typeof partner>>;
async function partner(mode: 'collector' | 'direct') {
  const m = await merchantWithSettlement(svc, `x402 ${mode}`);
  if (mode === 'direct') await setAccountMode(m.accountId, mode);
  const x402 = client(svc.directUrl, { 'Api-Key': m.apiKey });
  // Collector mode pays the account's own deposit address; direct mode the merchant's wallet.
  const payTo = (await x402PayTo(x402)) ?? m.wallet;
  return { ...m, x402, payTo, preview: client(svc.directUrl, { 'Api-Key': m.apiKey, ...PREVIEW }) };
}

async function subscribe(p: Partner, event: string) {
  const hook = await p.preview('POST', '/v1/webhook-endpoints', {
    body: { url: rx.url, enabledEvents: [event] },
    headers: { 'Idempotency-Key': uniqueKey() },
  });
  expect(hook.status).toBe(201);
}

const paymentsOf = async (p: Partner, referenceId: string) =>
  (await p.api('GET', `/v1/payments?referenceId=${encodeURIComponent(referenceId)}`)).body.data as any[];

beforeAll(async () => {
  svc = await startTestService();
  rx = await startReceiver();
  const supported = await client(svc.directUrl)('GET', '/x402/supported');
  collector = supported.body.signers['eip155:*'][0];
}, 60_000);
afterAll(async () => {
  await rx.close();
  await svc.close();
});
jest.setTimeout(90_000);

it('GET /x402/supported is public: the exact scheme on both development chains, the relayers as signers', async () => {
  const r = await client(svc.directUrl)('GET', '/x402/supported');
  expect(r.status).toBe(200);
  expect(r.headers.get('pay-version')).toBe('2026-02-19.preview');
  expect(r.body.kinds).toEqual(
    expect.arrayContaining([
      { x402Version: 2, scheme: 'exact', network: NETWORK },
      { x402Version: 2, scheme: 'exact', network: expect.stringMatching(/^eip155:(?!31337$)\d+$/) },
    ]),
  );
  expect(r.body.extensions).toEqual(['payment-identifier']);
  expect(r.body.signers['eip155:*']).toEqual(expect.arrayContaining([expect.stringMatching(/^0x[0-9a-fA-F]{40}$/)]));
});

it('@x402/fetch pays an @x402/express server through it: tokens move to payTo, a payment with its webhook', async () => {
  const p = await partner('direct');
  await subscribe(p, 'payment.succeeded');
  const buyer = await newBuyer(50_000n);
  const shop = await resourceServer(svc.directUrl, p.apiKey, p.wallet, '10000');
  try {
    const before = await balanceOf(p.wallet);
    const res = await payingFetch(buyer)(shop.url);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ content: 'paid for' });
    const settled = decodePaymentResponseHeader(res.headers.get('payment-response')!);
    expect(settled).toMatchObject({ success: true, network: NETWORK, payer: buyer.address });
    expect(await balanceOf(p.wallet)).toBe(before + 10_000n);
    expect(await balanceOf(buyer.address)).toBe(40_000n);
    const [payment] = await paymentsOf(p, shop.url);
    expect(payment).toMatchObject({ status: 'succeeded', referenceId: shop.url });
    const details = (
      await client(svc.directUrl, { 'Api-Key': p.apiKey, 'Merchant-Id': p.merchantId })('GET', `/v1/payments/${payment.paymentId}`)
    ).body;
    expect(details).toMatchObject({
      status: 'succeeded',
      amount: { unit: 'iso4217/USD', value: '1' },
      info: { txId: settled.transaction },
    });
    await rx.until((all) => all.some((r) => r.body?.type === 'payment.succeeded' && r.body.data.payment.paymentId === payment.paymentId));
    const events = (await p.preview('GET', `/v1/events?paymentId=${payment.paymentId}`)).body.events.map((e: { type: string }) => e.type);
    expect(events).toEqual(expect.arrayContaining(['payment.created', 'payment.processing', 'payment.succeeded']));
  } finally {
    await shop.close();
  }
});

it("collector mode: payTo is the account's deposit address, extra names the merchant, who is then settled", async () => {
  const p = await partner('collector');
  await subscribe(p, 'payment.settled');
  const buyer = await newBuyer(20_000n);
  const shop = await resourceServer(svc.directUrl, p.apiKey, p.payTo, '20000', { merchantId: p.merchantId });
  try {
    const res = await payingFetch(buyer)(shop.url);
    expect(res.status).toBe(200);
    expect(await balanceOf(buyer.address)).toBe(0n);
    const [payment] = await paymentsOf(p, shop.url);
    expect(payment.status).toBe('succeeded');
    await eventually(async () => expect(await balanceOf(p.wallet)).toBe(20_000n));
    await rx.until((all) => all.some((r) => r.body?.type === 'payment.settled' && r.body.data.payment.paymentId === payment.paymentId));
    // One book: the settlement is in the account's ledger like any payment (collected, then settled to the merchant).
    const types = (await ledgerRowsOf(p.preview, payment.paymentId)).map((r) => r.type);
    expect(types).toEqual(expect.arrayContaining(['collected', 'settled']));
    const bal = await p.preview('GET', '/v1/balance');
    expect(bal.status).toBe(200);
    for (const b of bal.body.balances) expect([b.available, b.pending, b.reserved]).toEqual(['0', '0', '0']);
  } finally {
    await shop.close();
  }
});

it('a USD 0.001 resource: tokens move, a payment of 1000 token units (amount rounded up to 1 cent), webhook and ledger', async () => {
  const p = await partner('collector');
  await subscribe(p, 'payment.succeeded');
  const buyer = await newBuyer(2_500n);
  const shop = await resourceServer(svc.directUrl, p.apiKey, p.payTo, '1000', { merchantId: p.merchantId });
  try {
    const res = await payingFetch(buyer)(shop.url);
    expect(res.status).toBe(200);
    expect(decodePaymentResponseHeader(res.headers.get('payment-response')!)).toMatchObject({ success: true, amount: '1000' });
    expect(await balanceOf(buyer.address)).toBe(1_500n);
    const [payment] = await paymentsOf(p, shop.url);
    expect(payment).toMatchObject({ status: 'succeeded', tokenAmount: { value: '1000' } });
    const asMerchant = client(svc.directUrl, { 'Api-Key': p.apiKey, 'Merchant-Id': p.merchantId });
    expect((await asMerchant('GET', `/v1/payments/${payment.paymentId}`)).body).toMatchObject({
      amount: { unit: 'iso4217/USD', value: '1' },
      info: { optionAmount: { value: '1000' } },
    });
    await eventually(async () => expect(await balanceOf(p.wallet)).toBe(1_000n));
    const ours = (r: { body?: any }) => r.body?.type === 'payment.succeeded' && r.body.data.payment.paymentId === payment.paymentId;
    const delivered = (await rx.until((all) => all.some(ours))).find(ours)!;
    expect(delivered.body.data.payment).toMatchObject({ amount: { value: '1' }, tokenAmount: { value: '1000' } });
    // The ledger is in token units: exactly what moved, 1000 in and 1000 out to the merchant.
    const rows = await eventually(async () => {
      const mine = await ledgerRowsOf(p.preview, payment.paymentId);
      expect(mine.map((r) => r.type)).toContain('settled');
      return mine;
    });
    expect(rows.find((r) => r.type === 'collected')).toMatchObject({ bucket: 'available', amount: '1000' });
    expect(rows.find((r) => r.type === 'settled')).toMatchObject({ amount: '-1000' });
  } finally {
    await shop.close();
  }
});

it('a replayed payload and two racing settles each move tokens once and answer the first settlement', async () => {
  const p = await partner('direct');
  const buyer = await newBuyer(30_000n);
  const body = await signedBody(buyer, { payTo: p.wallet, amount: '10000' });
  const first = await p.x402('POST', '/x402/settle', { body });
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({ success: true, network: NETWORK, amount: '10000', paymentId: expect.stringMatching(/^pay_/) });
  const again = await p.x402('POST', '/x402/settle', { body });
  expect(again.body).toEqual(first.body);

  const racing = await signedBody(buyer, { payTo: p.wallet, amount: '10000' });
  const both = await Promise.all([p.x402('POST', '/x402/settle', { body: racing }), p.x402('POST', '/x402/settle', { body: racing })]);
  expect(both.map((r) => r.status)).toEqual([200, 200]);
  expect(both[0].body).toMatchObject({ success: true });
  expect(both[1].body).toEqual(both[0].body);
  expect(both[0].body.paymentId).not.toBe(first.body.paymentId);
  expect(await balanceOf(buyer.address)).toBe(10_000n);
  expect(await balanceOf(p.wallet)).toBe(20_000n);
  const rows = await svc.db('x402_settlements').whereIn('payment_id', [first.body.paymentId, both[0].body.paymentId]);
  expect(rows).toHaveLength(2);
  expect(await svc.db('payments').where({ merchant_id: p.merchantId }).count({ n: '*' })).toEqual([{ n: '2' }]);
});

it('the payment-identifier extension: two authorizations under one id, also racing, settle once; the other is 422', async () => {
  const p = await partner('direct');
  const buyer = await newBuyer(30_000n);
  const paymentId = `order_${uniqueKey().replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  const bodies = [
    await signedBody(buyer, { payTo: p.wallet, amount: '10000' }, { paymentId }),
    await signedBody(buyer, { payTo: p.wallet, amount: '10000' }, { paymentId }),
  ];
  const raced = await Promise.all(bodies.map((body) => p.x402('POST', '/x402/settle', { body })));
  const won = raced.findIndex((r) => r.status === 200);
  expect(raced[won].body.success).toBe(true);
  const lost = raced[1 - won];
  expect({ status: lost.status, code: lost.body.code }).toEqual({ status: 422, code: 'idempotency_conflict' });
  expect((await p.x402('POST', '/x402/settle', { body: bodies[won] })).body).toEqual(raced[won].body);
  expect((await p.x402('POST', '/x402/settle', { body: bodies[1 - won] })).status).toBe(422);
  expect(await balanceOf(buyer.address)).toBe(20_000n);
});

it('settlement_pending when not final within maxPollMs; GET /x402/settlements/{id} long-polls it to success', async () => {
  const p = await partner('direct');
  const buyer = await newBuyer(10_000n);
  const body = await signedBody(buyer, { payTo: p.wallet, amount: '10000' });
  const pending = await p.x402('POST', '/x402/settle?maxPollMs=0', { body });
  expect(pending.status).toBe(200);
  expect(pending.body).toMatchObject({
    success: false,
    errorReason: 'settlement_pending',
    network: NETWORK,
    paymentId: expect.any(String),
  });
  const done = await p.x402('GET', `/x402/settlements/${pending.body.paymentId}?maxPollMs=20000`);
  expect(done.body).toMatchObject({
    success: true,
    paymentId: pending.body.paymentId,
    transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
  });
  const other = await partner('direct');
  const foreign = await other.x402('GET', `/x402/settlements/${pending.body.paymentId}`);
  expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 403, code: 'forbidden' });
  const missing = await other.x402('GET', '/x402/settlements/pay_doesnotexist');
  expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 404, code: 'not_found' });
});

it('verify refuses every broken term with x402 reason names and moves nothing', async () => {
  const p = await partner('direct');
  const buyer = await newBuyer(20_000n);
  const poor = privateKeyToAccount(generatePrivateKey());
  const now = BigInt(Math.floor(Date.now() / 1000));
  const t = { payTo: p.wallet, amount: '10000' };
  const used = await signedBody(buyer, t);
  expect((await p.x402('POST', '/x402/settle', { body: used })).body.success).toBe(true);
  // The token refuses a blacklisted payer: the transfer's simulation fails, for no reason of x402's own.
  const refused = await newBuyer(20_000n);
  const blacklisted = await tokenAdmin('blacklist', refused.address);
  await eventually(() => receiptOf(blacklisted));
  const cases: [string, unknown][] = [
    ['invalid_exact_evm_scheme', await signedBody(buyer, { ...t, scheme: 'upto' })],
    ['invalid_exact_evm_network_mismatch', { ...used, paymentRequirements: { ...used.paymentRequirements, network: 'eip155:8453' } }],
    ['invalid_exact_evm_missing_eip712_domain', await signedBody(buyer, { ...t, extra: {} })],
    ['invalid_exact_evm_token_name_mismatch', await signedBody(buyer, { ...t, extra: { name: 'USDC', version: '2' } })],
    ['invalid_exact_evm_token_version_mismatch', await signedBody(buyer, { ...t, extra: { name: 'USD Coin', version: '1' } })],
    ['invalid_exact_evm_eip3009_not_supported', await signedBody(buyer, { ...t, asset: '0x000000000000000000000000000000000000dEaD' })],
    ['invalid_exact_evm_recipient_mismatch', await signedBody(buyer, t, { to: collector })],
    ['invalid_exact_evm_payload_authorization_valid_before', await signedBody(buyer, t, { validBefore: now + 3n })],
    ['invalid_exact_evm_payload_authorization_valid_after', await signedBody(buyer, t, { validAfter: now + 600n })],
    ['invalid_exact_evm_authorization_value', await signedBody(buyer, t, { value: 9_999n })],
    ['invalid_exact_evm_authorization_value', await signedBody(buyer, { ...t, amount: '0' })],
    ['invalid_exact_evm_signature', await signedBody(buyer, t, { signer: poor })],
    ['invalid_exact_evm_insufficient_balance', await signedBody(poor, t)],
    ['invalid_exact_evm_nonce_already_used', used],
    ['invalid_exact_evm_transaction_simulation_failed', await signedBody(refused, t)],
    ['unsupported_payload_type', { ...used, paymentPayload: { ...used.paymentPayload, payload: { permit2Authorization: {} } } }],
  ];
  for (const [reason, body] of cases) {
    const r = await p.x402('POST', '/x402/verify', { body });
    expect({ reason, status: r.status, isValid: r.body.isValid, invalidReason: r.body.invalidReason }).toEqual({
      reason,
      status: 200,
      isValid: false,
      invalidReason: reason,
    });
  }
  const ok = await p.x402('POST', '/x402/verify', { body: await signedBody(buyer, t) });
  expect(ok.body).toEqual({ isValid: true, payer: buyer.address });
  expect(await balanceOf(buyer.address)).toBe(10_000n);
  expect(await svc.db('payments').where({ merchant_id: p.merchantId }).count({ n: '*' })).toEqual([{ n: '1' }]);
});

it('refuses strangers: 401 without a key, 403 for a payTo of no merchant of the account, 400 for a malformed body', async () => {
  const p = await partner('direct');
  const buyer = await newBuyer();
  const stranger = privateKeyToAccount(generatePrivateKey()).address;
  const body = await signedBody(buyer, { payTo: stranger, amount: '10000' });
  for (const op of ['verify', 'settle']) {
    const anonymous = await client(svc.directUrl)('POST', `/x402/${op}`, { body });
    expect({ status: anonymous.status, code: anonymous.body.code }).toEqual({ status: 401, code: 'missing_api_key' });
    const foreign = await p.x402('POST', `/x402/${op}`, { body });
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 403, code: 'forbidden' });
    const bad = await p.x402('POST', `/x402/${op}`, { body: { x402Version: 1, paymentPayload: {} } });
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: 'params_validation' });
  }
  const c = await partner('collector');
  const collectorWithoutMerchant = await signedBody(buyer, { payTo: c.payTo, amount: '10000' });
  const r = await c.x402('POST', '/x402/verify', { body: collectorWithoutMerchant });
  expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 'params_validation' });
  const direct = await signedBody(buyer, {
    payTo: collector,
    amount: '10000',
    extra: { name: 'USD Coin', version: '2', merchantId: p.merchantId },
  });
  const d = await p.x402('POST', '/x402/verify', { body: direct });
  expect({ status: d.status, code: d.body.code }).toEqual({ status: 403, code: 'forbidden' });
});

it('a payment link is paid over x402: 402 with its requirements, then the paid retry of @x402/fetch completes it', async () => {
  const p = await partner('collector');
  const created = await client(svc.directUrl, { 'Api-Key': p.apiKey, 'Merchant-Id': p.merchantId })('POST', '/v1/payments', {
    body: { referenceId: uniqueKey('agent-order'), amount: { unit: 'iso4217/USD', value: '5' } },
  });
  const id = created.body.paymentId;
  const agentKey = (await newKey(p.accountId, 'wallet')).apiKey;
  const agent = { 'Api-Key': agentKey, ...PREVIEW };
  const unpaid = await client(svc.directUrl, agent)('GET', `/v1/gateway/payment/${id}/x402`);
  expect({ status: unpaid.status, code: unpaid.body.code }).toEqual({ status: 402, code: 'payment_required' });
  const required = JSON.parse(Buffer.from(unpaid.headers.get('payment-required')!, 'base64').toString());
  expect(required).toMatchObject({ x402Version: 2, accepts: [{ scheme: 'exact', network: NETWORK, amount: '50000', payTo: p.payTo }] });

  const refusedWith = async (header: string) => {
    const r = await client(svc.directUrl, { ...agent, 'PAYMENT-SIGNATURE': header })('GET', `/v1/gateway/payment/${id}/x402`);
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 402, code: 'payment_required' });
    return JSON.parse(Buffer.from(r.headers.get('payment-required')!, 'base64').toString()).error as string;
  };
  expect(await refusedWith('not a payload')).toMatch(/PaymentPayload/);
  const [accepted] = required.accepts;
  const unfunded = await signedBody(privateKeyToAccount(generatePrivateKey()), { ...accepted });
  expect(await refusedWith(Buffer.from(JSON.stringify(unfunded.paymentPayload)).toString('base64'))).toMatch(
    /^invalid_exact_evm_insufficient_balance: /,
  );

  const buyer = await newBuyer(60_000n);
  const res = await payingFetch(buyer)(`${svc.directUrl}/v1/gateway/payment/${id}/x402`, { headers: agent });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ status: 'succeeded', isFinal: true });
  const settled = JSON.parse(Buffer.from(res.headers.get('payment-response')!, 'base64').toString());
  expect(settled).toMatchObject({ success: true, paymentId: id, payer: buyer.address });
  expect(await balanceOf(buyer.address)).toBe(10_000n);
  await eventually(async () => expect(await balanceOf(p.wallet)).toBe(50_000n));
  const again = await client(svc.directUrl, agent)('GET', `/v1/gateway/payment/${id}/x402`);
  expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 'invalid_state' });
});
