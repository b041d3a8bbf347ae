import { createPaygateClient, idempotencyKey, PREVIEW_VERSION, runActions, STABLE_VERSION, type Schemas } from '@paygate/client';
import { startTestService, TestService, itOwn } from '../support/service';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { balanceOf } from '../support/chain';
import { newUsdtBuyer, USDT, usdtShop, walletOf } from '../support/permit2';

// @paygate/client (clients/typescript) against the real service: the headers it sets, the version it pins,
// and the typed results. The quickstart (make test-sdks) runs the whole payment flow with it.

let svc: TestService;
let m: Awaited<ReturnType<typeof merchantWithSettlement>>;

beforeAll(async () => {
  svc = await startTestService();
  m = await merchantWithSettlement(svc, 'Client Shop');
}, 60_000); // starts a service (and the admin command): slow on a busy machine
afterAll(() => svc.close());

describe('@paygate/client', () => {
  it('pins the stable version, authenticates with the key and identifies itself', async () => {
    const paygate = createPaygateClient({ baseUrl: `${svc.url}/`, apiKey: m.apiKey });
    const key = idempotencyKey('merchant', uniqueKey());
    const r = await paygate.POST('/v1/merchants', {
      params: { header: { 'Idempotency-Key': key } },
      body: { merchantName: 'Thin Client Bakery', merchantEmail: 'owner@bakery.example.com' },
    });
    expect(r.response.status).toBe(201);
    expect(r.response.headers.get('pay-version')).toBe(STABLE_VERSION);
    expect(r.data?.merchant).toMatchObject({ id: expect.stringMatching(/^mrch_/), name: 'Thin Client Bakery', status: 'active' });

    // The same derived key is the same request: answered from the stored response, nothing created twice.
    const again = await paygate.POST('/v1/merchants', {
      params: { header: { 'Idempotency-Key': idempotencyKey('merchant', key.slice('merchant:'.length)) } },
      body: { merchantName: 'Thin Client Bakery', merchantEmail: 'owner@bakery.example.com' },
    });
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data?.merchant.id).toBe(r.data?.merchant.id);
  });

  it('returns the spec Error body as a typed error', async () => {
    const r = await createPaygateClient({ baseUrl: svc.url, apiKey: 'pgk_not_a_key' }).GET('/v1/merchants');
    expect(r.response.status).toBe(401);
    expect(r.data).toBeUndefined();
    expect(r.error).toMatchObject({ code: 'invalid_api_key', requestId: expect.stringMatching(/^req_/) });
  });

  it('is typed for the preview when asked: checkout URLs exist only there', async () => {
    // The preview goes straight to the service: a proxy validating the stable contract would refuse it.
    const preview = createPaygateClient({ baseUrl: svc.directUrl, apiKey: m.apiKey, version: PREVIEW_VERSION });
    const r = await preview.POST('/v1/payments', {
      params: { header: { 'Merchant-Id': m.merchantId } },
      body: {
        referenceId: uniqueKey('order'),
        amount: { unit: 'iso4217/USD', value: '500' },
        checkout: { successUrl: 'https://shop.example.com/ok', errorUrl: 'https://shop.example.com/ko' },
      },
    });
    expect(r.response.status).toBe(201);
    expect(r.response.headers.get('pay-version')).toBe(PREVIEW_VERSION);
    expect(r.data?.status).toBe('requires_action');

    // Compile-time only: the stable request schema has no `checkout` (make typecheck fails if it had).
    // openapi-fetch infers the body through a type parameter, so an extra property passed inline to
    // POST() is not flagged; a body typed with the version's schema is.
    // @ts-expect-error `checkout` is not in the stable CreatePaymentRequest
    const stableBody: Schemas['CreatePaymentRequest'] = { referenceId: 'x', amount: { unit: 'iso4217/USD', value: '500' }, checkout: {} };
    expect(stableBody.referenceId).toBe('x');
  });

  // Like permit2.test.ts: the buyer's gas and tokens come from the run's own development chain.
  itOwn('runActions: a Permit2 option paid in order (the approve mined, then the permit signed), USDT moving', async () => {
    const shop = await usdtShop(svc, 'Client USDT Shop', 'direct');
    const gateway = createPaygateClient({ baseUrl: svc.url, apiKey: shop.walletKey });
    const buyer = await newUsdtBuyer(4_000_000n);
    const id = await shop.pay('400');
    const path = { id };
    const options = await gateway.POST('/v1/gateway/payment/{id}/options', {
      params: { path },
      body: { accounts: [`eip155:31337:${buyer.address}`] },
    });
    const option = options.data!.options!.find((o) => o.amount.unit === `caip19/${USDT}`)!;
    expect(option.actions.map((a) => a.type === 'walletRpc' && a.data.method)).toEqual(['eth_sendTransaction', 'eth_signTypedData_v4']);
    const ran: string[] = [];
    const results = await runActions(option.actions, async (request) => {
      ran.push(request.method);
      return walletOf(buyer)(request);
    });
    expect(ran).toEqual(['eth_sendTransaction', 'eth_signTypedData_v4']);
    expect(results).toEqual([
      { type: 'walletRpc', data: [expect.stringMatching(/^0x[0-9a-f]{64}$/)] },
      { type: 'walletRpc', data: [expect.stringMatching(/^0x[0-9a-f]{130}$/)] },
    ]);
    const confirmed = await gateway.POST('/v1/gateway/payment/{id}/confirm', { params: { path }, body: { optionId: option.id, results } });
    expect(confirmed.response.status).toBe(200);
    expect((await shop.until(id, (d) => d.status === 'succeeded')).status).toBe('succeeded');
    expect(await balanceOf(buyer.address, 'USDT')).toBe(0n);
    expect(await balanceOf(shop.wallet, 'USDT')).toBe(4_000_000n);

    // A build action has no wallet request: runActions refuses it before running anything.
    await expect(runActions([{ type: 'build', data: { data: 'opaque' } }], () => Promise.reject(new Error('ran')))).rejects.toThrow(
      /fetch/,
    );
  });

  it('derives Idempotency-Keys from the operation, or draws a UUID', () => {
    expect(idempotencyKey('payment', 'mrch_1', 42)).toBe('payment:mrch_1:42');
    expect(idempotencyKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idempotencyKey()).not.toBe(idempotencyKey());
    expect(() => idempotencyKey('x'.repeat(256))).toThrow(RangeError);
  });
});
