import { admin, client, newKey, startTestService, type TestService } from '../support/service';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { encodeFunctionData, erc20Abi, maxUint256, serializeErc6492Signature, type Address } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { balanceOf, fund, newBuyer, USDC_TOKEN } from '../support/chain';
import { newSmartWallet } from '../support/smartWallet';
import { signedBody } from '../support/x402';

// The x402 facilitator and payment link as an attacker drives them (security review): terms no chain or clock can
// hold are refused with x402's reason names, never a 500.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
}, 60_000);
afterAll(() => svc.close());
jest.setTimeout(90_000);

it('a validBefore beyond any date (or uint256): verify and settle refuse it, 200 with its reason, no 500', async () => {
  const m = await merchantWithSettlement(svc, 'x402 abuse');
  await admin('accounts', 'set-mode', '--account', m.accountId, '--mode', 'direct');
  const x402 = client(svc.directUrl, { 'Api-Key': m.apiKey });
  const buyer = await newBuyer(20_000n);
  const t = { payTo: m.wallet, amount: '10000' };
  const far = await signedBody(buyer, t, { validBefore: 10n ** 13n });
  const huge = await signedBody(buyer, t);
  const auth = huge.paymentPayload.payload.authorization;
  const big = (2n ** 256n).toString();
  const over = {
    ...huge,
    paymentPayload: { ...huge.paymentPayload, payload: { ...huge.paymentPayload.payload, authorization: { ...auth, validBefore: big } } },
  };
  const cases: [string, unknown][] = [
    ['invalid_exact_evm_payload_authorization_valid_before', far],
    ['invalid_exact_evm_payload_authorization_valid_before', over],
  ];
  for (const [reason, body] of cases)
    for (const op of ['verify', 'settle']) {
      const r = await x402('POST', `/x402/${op}`, { body });
      expect({ op, status: r.status, reason: r.body.invalidReason ?? r.body.errorReason }).toEqual({ op, status: 200, reason });
    }
  expect(await svc.db('payments').where({ merchant_id: m.merchantId })).toEqual([]);
});

it('the payment link refuses a validBefore beyond any date with 402 and its reason; the payment stays open', async () => {
  const m = await merchantWithSettlement(svc, 'x402 link abuse');
  const created = await client(svc.directUrl, { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId })('POST', '/v1/payments', {
    body: { referenceId: uniqueKey('o'), amount: { unit: 'iso4217/USD', value: '5' } },
  });
  const id = created.body.paymentId;
  const agent = client(svc.directUrl, {
    'Api-Key': (await newKey(m.accountId, 'wallet')).apiKey,
    ...PREVIEW,
  });
  const unpaid = await agent('GET', `/v1/gateway/payment/${id}/x402`);
  const [accepted] = JSON.parse(Buffer.from(unpaid.headers.get('payment-required')!, 'base64').toString()).accepts;
  const body = await signedBody(await newBuyer(60_000n), accepted, { validBefore: 10n ** 13n });
  const header = Buffer.from(JSON.stringify(body.paymentPayload)).toString('base64');
  const r = await agent('GET', `/v1/gateway/payment/${id}/x402`, { headers: { 'PAYMENT-SIGNATURE': header } });
  expect({ status: r.status, code: r.body.code }).toEqual({ status: 402, code: 'payment_required' });
  expect(JSON.parse(Buffer.from(r.headers.get('payment-required')!, 'base64').toString()).error).toMatch(
    /^invalid_exact_evm_payload_authorization_valid_before/,
  );
  expect((await svc.db('payments').where({ id }).first()).status).toBe('requires_action');
});

it('a collector-mode account cannot choose direct settlement (no fee) by payTo: 403 forbidden; nothing moves', async () => {
  const m = await merchantWithSettlement(svc, 'x402 fee dodger');
  const x402 = client(svc.directUrl, { 'Api-Key': m.apiKey });
  const buyer = await newBuyer(10_000n);
  const body = await signedBody(buyer, {
    payTo: m.wallet,
    amount: '10000',
    extra: { name: 'USD Coin', version: '2', merchantId: m.merchantId },
  });
  for (const op of ['verify', 'settle']) {
    const r = await x402('POST', `/x402/${op}`, { body });
    expect({ op, status: r.status, code: r.body.code }).toEqual({ op, status: 403, code: 'forbidden' });
  }
  expect([await balanceOf(buyer.address), await balanceOf(m.wallet)]).toEqual([10_000n, 0n]);
  expect(await svc.db('payments').where({ merchant_id: m.merchantId })).toEqual([]);
});

it('an undeployed smart wallet (ERC-6492) settles: the relayer deploys it, then transfers; a token factory is refused', async () => {
  const m = await merchantWithSettlement(svc, 'x402 6492');
  await admin('accounts', 'set-mode', '--account', m.accountId, '--mode', 'direct');
  const x402 = client(svc.directUrl, { 'Api-Key': m.apiKey });
  const wallet = newSmartWallet();
  await fund(wallet.address, 20_000n);
  const asWallet = { address: wallet.address, signTypedData: (td: unknown) => wallet.signTypedData(td) } as unknown as PrivateKeyAccount;
  const t = { payTo: m.wallet, amount: '10000' };
  const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [m.wallet as Address, maxUint256] });
  const byToken = {
    ...asWallet,
    signTypedData: async (td: unknown) =>
      serializeErc6492Signature({ address: USDC_TOKEN, data: approve, signature: await wallet.signTypedData(td, { wrapped: false }) }),
  } as unknown as PrivateKeyAccount;
  const refused = await x402('POST', '/x402/verify', { body: await signedBody(asWallet, t, { signer: byToken }) });
  expect(refused.body).toMatchObject({ isValid: false, invalidReason: 'invalid_exact_evm_signature' });
  const r = await x402('POST', '/x402/settle', { body: await signedBody(asWallet, t) });
  expect(r.body).toMatchObject({ success: true, payer: wallet.address });
  expect([await wallet.hasCode(), await balanceOf(wallet.address), await balanceOf(m.wallet)]).toEqual([true, 10_000n, 10_000n]);
});
