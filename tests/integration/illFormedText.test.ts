import { client, startTestService, TestService } from '../support/service';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';

// Ill-formed Unicode (issue 28, finding 13): JSON may escape a lone surrogate ("\ud800"), which is no text;
// PostgreSQL refuses it in jsonb. Such a body is bad input, refused where the body is read (400
// invalid_params naming the field), so it never reaches a statement, least of all one shared with other
// callers' payment creations (src/db/coalesce.ts). Every request here breaks the contract: to the service directly.

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
}, 60_000);
afterAll(() => svc?.close());

const json = { 'content-type': 'application/json' };
const usd = { unit: 'iso4217/USD', value: '100' };

describe('ill-formed text in a JSON body', () => {
  it('a lone surrogate in referenceId is 400 invalid_params naming the field; creations beside it all succeed', async () => {
    const m = await merchantWithSettlement(svc, 'Surrogates');
    const other = await merchantWithSettlement(svc, 'Neighbour');
    const bad = client(svc.directUrl, { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId });
    const refs = ['\\ud800', 'order \\udfff', '\\ud83d\\ud83d', '\\ude00\\ud83d'];
    const refused = refs.map((ref) =>
      bad('POST', '/v1/payments', { raw: `{"referenceId":"${ref}","amount":${JSON.stringify(usd)}}`, headers: json }),
    );
    const good = (n: number) =>
      Array.from({ length: n }, () => other.asMerchant('POST', '/v1/payments', { body: { referenceId: uniqueKey(), amount: usd } }));
    const [before, badOnes, after] = await Promise.all([Promise.all(good(8)), Promise.all(refused), Promise.all(good(8))]);
    for (const r of badOnes) {
      expect({ status: r.status, code: r.body.code, issues: r.body.issues }).toEqual({
        status: 400,
        code: 'invalid_params',
        issues: [{ field: '/referenceId', message: expect.stringMatching(/surrogate/) }],
      });
    }
    expect([...before, ...after].map((r) => r.status)).toEqual(Array(16).fill(201));
    expect(await svc.db('payments').where({ merchant_id: m.merchantId })).toEqual([]);
    // A surrogate pair is one character, well formed: stored as sent.
    const pair = await bad('POST', '/v1/payments', {
      raw: `{"referenceId":"order \\ud83d\\ude00","amount":${JSON.stringify(usd)}}`,
      headers: json,
    });
    expect(pair.status).toBe(201);
    expect((await svc.db('payments').where({ id: pair.body.paymentId }).first()).reference_id).toBe('order \u{1F600}');
  });

  it('any string of any JSON body, object keys included, with or without Idempotency-Key; nothing is stored', async () => {
    const m = await merchantWithSettlement(svc, 'Every body');
    const api = client(svc.directUrl, { 'Api-Key': m.apiKey });
    const key = uniqueKey();
    const merchant = await api('POST', '/v1/merchants', {
      raw: '{"merchantName":"Caf\\u00e9 \\udc00","merchantEmail":"a@b.io"}',
      headers: { ...json, 'Idempotency-Key': key },
    });
    // Merchant creation answers the hosted contract's code, ours in reason.
    expect({
      status: merchant.status,
      code: merchant.body.code,
      reason: merchant.body.reason,
      field: merchant.body.issues?.[0].field,
    }).toEqual({
      status: 400,
      code: 'params_validation',
      reason: 'invalid_params',
      field: '/merchantName',
    });
    expect(await svc.db('idempotency_keys').where({ key })).toEqual([]);
    const nested = await api('POST', '/v1/gateway/payment/pay_none/fetch', {
      raw: '{"optionId":"opt_none","data":{"list":[1,{"\\ud800":"x"}]}}',
      headers: json,
    });
    expect({ status: nested.status, code: nested.body.code, field: nested.body.issues?.[0].field }).toEqual({
      status: 400,
      code: 'invalid_params',
      field: '/data/list/1/\ufffd', // the key itself is shown with U+FFFD in place of the surrogate
    });
    const hosted = await client(svc.directUrl)('POST', '/collect', {
      raw: '{"pid":"pay_none","data":{"fullName":"\\udbff"}}',
      headers: json,
    });
    expect({ status: hosted.status, code: hosted.body.code }).toEqual({ status: 400, code: 'invalid_params' });
  });

  it('a list cursor carrying a lone surrogate is 400 params_validation, as any cursor not made by the API', async () => {
    const m = await merchantWithSettlement(svc, 'Cursor');
    const cursor = Buffer.from('{"s":"createdAt","d":"desc","i":"pay_\\ud800","v":"2026-01-01T00:00:00.000Z"}').toString('base64url');
    const r = await client(svc.directUrl, { 'Api-Key': m.apiKey })('GET', `/v1/payments?cursor=${cursor}`);
    expect({ status: r.status, code: r.body.code, field: r.body.issues?.[0].field }).toEqual({
      status: 400,
      code: 'params_validation',
      field: 'cursor',
    });
  });
});
