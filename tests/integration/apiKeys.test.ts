import { createHash } from 'node:crypto';
import { uniqueKey } from '../support/fixtures';
import { admin, client, newAccount, newKey, startTestService, type TestService } from '../support/service';

// A partner's own API keys (preview /v1/api-keys, docs/keys.md): created without the operator, the secret shown
// once, listed without it, read-only keys refused outside GET (403 key_restricted), expiring keys refused once
// expired, revoked keys refused at once (401), every change in the account's audit log, and nothing across accounts
// or modes. Keys limited to merchants, and when a key was last used: apiKeysScope.test.ts.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
}, 60_000);
afterAll(async () => {
  await svc.close();
});

async function account(name = 'Keys') {
  const a = await newAccount(name);
  return { ...a, call: client(svc.url, { 'Api-Key': a.apiKey, ...PREVIEW }) };
}
const as = (apiKey: string) => client(svc.url, { 'Api-Key': apiKey, ...PREVIEW });
const merchant = (call: ReturnType<typeof client>) =>
  call('POST', '/v1/merchants', { body: { merchantName: 'Shop', merchantEmail: 'm@x.io' }, headers: { 'Idempotency-Key': uniqueKey() } });

it('creates a key whose secret is shown once and works; the list shows it without the secret', async () => {
  const a = await account();
  const idem = uniqueKey();
  const create = () => a.call('POST', '/v1/api-keys', { body: { name: 'Server' }, headers: { 'Idempotency-Key': idem } });
  const created = await create();
  expect(created.status).toBe(201);
  expect(created.body.apiKey).toEqual({
    id: expect.stringMatching(/^key_[0-9A-Za-z]{16}$/),
    name: 'Server',
    type: 'partner',
    readOnly: false,
    merchantIds: null,
    expiresAt: null,
    lastUsedAt: null,
    createdAt: expect.any(String),
    revokedAt: null,
    livemode: true,
  });
  const secret: string = created.body.secret;
  expect(secret).toMatch(/^pgk_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}$/);
  expect(secret.slice(4, 20)).toBe(created.body.apiKey.id.slice(4));
  // A retry answers the same key; the stored answer is sealed, and the database holds the secret only hashed.
  const replay = await create();
  expect([replay.headers.get('idempotent-replayed'), replay.text]).toEqual(['true', created.text]);
  expect((await svc.db('idempotency_keys').where({ key: idem }).first()).response_body).toMatch(/^sealed:/);
  const row = await svc.db('api_keys').where({ id: created.body.apiKey.id }).first();
  expect(row.secret_hash.equals(createHash('sha256').update(secret.slice(21)).digest())).toBe(true);

  expect((await merchant(as(secret))).status).toBe(201);
  const list = await a.call('GET', '/v1/api-keys');
  expect(list.status).toBe(200);
  expect(list.text).not.toContain(secret.slice(21));
  expect(list.body.data.map((k: { id: string }) => k.id)).toEqual([created.body.apiKey.id, a.keyId]);
  expect(list.body.data[1]).toMatchObject({ name: null, type: 'partner', readOnly: false, revokedAt: null });
});

it('a read-only key reads and is refused every change with 403 key_restricted; nothing is written', async () => {
  const a = await account();
  const ro = await a.call('POST', '/v1/api-keys', { body: { name: 'Reporting', readOnly: true } });
  expect(ro.body.apiKey.readOnly).toBe(true);
  const reader = as(ro.body.secret);
  expect((await reader('GET', '/v1/merchants')).status).toBe(200);
  expect((await reader('GET', '/v1/api-keys')).status).toBe(200);
  const before = await svc.db('api_keys').where({ account_id: a.accountId }).count<{ n: string }[]>({ n: '*' });
  for (const r of [
    await merchant(reader),
    await reader('POST', '/v1/api-keys', { body: { name: 'Escalate' } }),
    await reader('DELETE', `/v1/api-keys/${a.keyId}`),
  ]) {
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 403, code: 'key_restricted' });
    expect(r.body.message).toMatch(/read-only/);
  }
  expect(await svc.db('merchants').where({ account_id: a.accountId })).toEqual([]);
  // The gateway's operations are any key's (the payment id is the capability): not refused, an unknown payment is 404.
  const gateway = await reader('POST', '/v1/gateway/payment/pay_0000000000000000000000/options', {
    body: { accounts: ['eip155:31337:0x0000000000000000000000000000000000000001'] },
  });
  expect({ status: gateway.status, code: gateway.body.code }).toEqual({ status: 404, code: 'payment_not_found' });
  expect(await svc.db('api_keys').where({ account_id: a.accountId }).count<{ n: string }[]>({ n: '*' })).toEqual(before);
  expect((await svc.db('api_keys').where({ id: a.keyId }).first()).revoked_at).toBeNull();
});

it('an expiring key works until its expiry, then is 401 invalid_api_key; an expiry in the past is 400', async () => {
  const a = await account();
  const past = await a.call('POST', '/v1/api-keys', { body: { name: 'Old', expiresAt: new Date(Date.now() - 1000).toISOString() } });
  expect({ status: past.status, code: past.body.code, field: past.body.issues?.[0]?.field }).toEqual({
    status: 400,
    code: 'params_validation',
    field: '/expiresAt',
  });
  const expiresAt = new Date(Date.now() + 1500).toISOString();
  const soon = await a.call('POST', '/v1/api-keys', { body: { name: 'Short', expiresAt } });
  expect(soon.body.apiKey.expiresAt).toBe(expiresAt);
  const call = as(soon.body.secret);
  expect((await call('GET', '/v1/merchants')).status).toBe(200);
  await new Promise((r) => setTimeout(r, Date.parse(expiresAt) - Date.now() + 50));
  const expired = await call('GET', '/v1/merchants');
  expect({ status: expired.status, code: expired.body.code }).toEqual({ status: 401, code: 'invalid_api_key' });
});

it('revoke: the key is 401 at once, a second revoke answers the same, never itself, never another account', async () => {
  const a = await account();
  const b = await account('Other');
  const made = await a.call('POST', '/v1/api-keys', { body: { name: 'Temp' } });
  const id = made.body.apiKey.id;
  const temp = as(made.body.secret);
  expect((await temp('GET', '/v1/merchants')).status).toBe(200); // now in the key cache
  const self = await temp('DELETE', `/v1/api-keys/${id}`);
  expect({ status: self.status, code: self.body.code }).toEqual({ status: 409, code: 'invalid_state' });
  const foreign = await b.call('DELETE', `/v1/api-keys/${id}`);
  expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 404, code: 'api_key_not_found' });
  const unknown = await a.call('DELETE', '/v1/api-keys/key_0000000000000000');
  expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 'api_key_not_found' });

  const revoked = await a.call('DELETE', `/v1/api-keys/${id}`);
  expect(revoked.status).toBe(200);
  expect(revoked.body.apiKey).toMatchObject({ id, revokedAt: expect.any(String) });
  const after = await temp('GET', '/v1/merchants');
  expect({ status: after.status, code: after.body.code }).toEqual({ status: 401, code: 'invalid_api_key' });
  const again = await a.call('DELETE', `/v1/api-keys/${id}`);
  expect(again.body.apiKey.revokedAt).toBe(revoked.body.apiKey.revokedAt);
  expect((await b.call('GET', '/v1/api-keys')).body.data.map((k: { id: string }) => k.id)).toEqual([b.keyId]);
});

it('the audit log names each change and who made it: this API (the key) and the operator CLI', async () => {
  const a = await account();
  const made = await a.call('POST', '/v1/api-keys', { body: { name: 'Audited' } });
  await a.call('DELETE', `/v1/api-keys/${made.body.apiKey.id}`);
  await a.call('DELETE', `/v1/api-keys/${made.body.apiKey.id}`); // a second revoke changes nothing
  const byOperator = await admin('keys', 'create', '--account', a.accountId, '--type', 'wallet');
  const log = await a.call('GET', '/v1/audit-events?limit=10');
  expect(log.status).toBe(200);
  expect(log.body.data.map((e: Record<string, unknown>) => [e.action, e.actor, e.target])).toEqual([
    ['api_key.created', { type: 'operator', id: null }, byOperator.keyId],
    ['api_key.revoked', { type: 'api_key', id: a.keyId }, made.body.apiKey.id],
    ['api_key.created', { type: 'api_key', id: a.keyId }, made.body.apiKey.id],
  ]);
  expect((await a.call('GET', '/v1/audit-events?limit=1')).body.data).toHaveLength(1);
  const other = await account('Unrelated');
  expect((await other.call('GET', '/v1/audit-events')).body.data).toEqual([]);
});

it('modes and types: a test key makes and sees test keys only; a wallet key it makes reaches the gateway only', async () => {
  const a = await account();
  const test = as((await newKey(a.accountId, 'partner', undefined, 'test')).apiKey);
  const made = await test('POST', '/v1/api-keys', { body: { name: 'Test wallet', type: 'wallet' } });
  expect(made.status).toBe(201);
  expect(made.body.secret).toMatch(/^pgk_test_/);
  expect(made.body.apiKey).toMatchObject({ type: 'wallet', livemode: false });
  expect((await a.call('GET', '/v1/api-keys')).body.data.map((k: { id: string }) => k.id)).not.toContain(made.body.apiKey.id);
  const live = await a.call('DELETE', `/v1/api-keys/${made.body.apiKey.id}`);
  expect({ status: live.status, code: live.body.code }).toEqual({ status: 404, code: 'api_key_not_found' });
  const wallet = as(made.body.secret);
  const partnerApi = await wallet('GET', '/v1/merchants');
  expect({ status: partnerApi.status, code: partnerApi.body.code }).toEqual({ status: 403, code: 'forbidden' });
  const gateway = await wallet('GET', '/v1/gateway/payment/pay_0000000000000000000000');
  expect(gateway.status).toBe(404);
});

it("a key's name with a control character is 400 params_validation at /name (a NUL, which PostgreSQL refuses, too)", async () => {
  const a = await account();
  const direct = client(svc.directUrl, { 'Api-Key': a.apiKey, ...PREVIEW });
  for (const name of ['a\u0000b', 'two\nlines']) {
    const r = await direct('POST', '/v1/api-keys', { body: { name } });
    expect({ status: r.status, code: r.body.code, field: r.body.issues?.[0]?.field }).toEqual({
      status: 400,
      code: 'params_validation',
      field: '/name',
    });
  }
  expect(await svc.db('api_keys').where({ account_id: a.accountId }).count<{ n: string }[]>({ n: '*' })).toEqual([{ n: '1' }]);
});
