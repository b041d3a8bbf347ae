import { decodePaymentResponseHeader } from '@x402/fetch';
import { balanceOf, newBuyer } from '../support/chain';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, newKey, setAccountMode, startTestService, type TestService } from '../support/service';
import { payingFetch, signedBody } from '../support/x402';

// Issue 45: the x402 wire of current x402 specs and of @x402/core 2.27. Requirements carry
// `extra.assetTransferMethod` (`eip3009`: what this facilitator settles; another is refused), and a settle answered
// `settlement_pending` carries the transfer's hash once the relayer signed it, on which @x402/core's resource server
// settles once more instead of failing the paid request.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
const EIP3009 = { name: 'USD Coin', version: '2', assetTransferMethod: 'eip3009' };
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
}, 60_000);
afterAll(async () => {
  await svc.close();
});
jest.setTimeout(120_000);

async function directPartner() {
  const m = await merchantWithSettlement(svc, 'x402 wire');
  await setAccountMode(m.accountId, 'direct');
  return { ...m, x402: client(svc.directUrl, { 'Api-Key': m.apiKey }) };
}

it('a payment link offers requirements with extra.assetTransferMethod eip3009; @x402/fetch pays them', async () => {
  const p = await directPartner();
  const created = await p.asMerchant('POST', '/v1/payments', {
    body: { referenceId: uniqueKey('atm'), amount: { unit: 'iso4217/USD', value: '2' } },
  });
  const agent = { 'Api-Key': (await newKey(p.accountId, 'wallet')).apiKey, ...PREVIEW };
  const url = `${svc.directUrl}/v1/gateway/payment/${created.body.paymentId}/x402`;
  const unpaid = await client(svc.directUrl, agent)('GET', `/v1/gateway/payment/${created.body.paymentId}/x402`);
  expect(unpaid.status).toBe(402);
  const required = JSON.parse(Buffer.from(unpaid.headers.get('payment-required')!, 'base64').toString());
  expect(required.accepts.length).toBeGreaterThan(0);
  for (const a of required.accepts) expect(a.extra).toMatchObject({ assetTransferMethod: 'eip3009', name: expect.any(String) });
  const buyer = await newBuyer(20_000n);
  const res = await payingFetch(buyer)(url, { headers: agent });
  expect(res.status).toBe(200);
  expect(decodePaymentResponseHeader(res.headers.get('payment-response')!)).toMatchObject({ success: true, payer: buyer.address });
});

it('verify and settle take requirements with assetTransferMethod eip3009, and refuse permit2 (or another) as invalid_payment_requirements', async () => {
  const p = await directPartner();
  const buyer = await newBuyer(10_000n);
  const ok = await signedBody(buyer, { payTo: p.wallet, amount: '10000', extra: EIP3009 });
  expect((await p.x402('POST', '/x402/verify', { body: ok })).body).toEqual({ isValid: true, payer: buyer.address });
  for (const method of ['permit2', 'EIP3009', 42]) {
    const other = await signedBody(buyer, { payTo: p.wallet, amount: '10000', extra: { ...EIP3009, assetTransferMethod: method } });
    const v = await p.x402('POST', '/x402/verify', { body: other });
    expect([v.status, v.body.isValid, v.body.invalidReason]).toEqual([200, false, 'invalid_payment_requirements']);
    expect(v.body.invalidMessage).toMatch(/^unsupported_asset_transfer_method: /);
    const s = await p.x402('POST', '/x402/settle', { body: other });
    expect([s.status, s.body.success, s.body.errorReason, s.body.transaction]).toEqual([200, false, 'invalid_payment_requirements', '']);
    const nonce = other.paymentPayload.payload.authorization.nonce;
    expect(await svc.db('x402_settlements').where({ nonce })).toEqual([]);
  }
  // What the payload accepted is checked as well as the requirements.
  const accepted = await signedBody(buyer, { payTo: p.wallet, amount: '10000', extra: EIP3009 });
  accepted.paymentPayload.accepted = { ...accepted.paymentPayload.accepted, extra: { ...EIP3009, assetTransferMethod: 'permit2' } };
  expect((await p.x402('POST', '/x402/verify', { body: accepted })).body.invalidReason).toBe('invalid_payment_requirements');
  const settled = await p.x402('POST', '/x402/settle', { body: ok });
  expect(settled.body).toMatchObject({ success: true, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
  expect(await balanceOf(buyer.address)).toBe(0n);
});
