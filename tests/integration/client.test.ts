import { createPaygateClient, idempotencyKey, PREVIEW_VERSION, STABLE_VERSION, type Schemas } from '@paygate/client';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { startTestService, TestService } from '../support/service';

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

  it('derives Idempotency-Keys from the operation, or draws a UUID', () => {
    expect(idempotencyKey('payment', 'mrch_1', 42)).toBe('payment:mrch_1:42');
    expect(idempotencyKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idempotencyKey()).not.toBe(idempotencyKey());
    expect(() => idempotencyKey('x'.repeat(256))).toThrow(RangeError);
  });
});
