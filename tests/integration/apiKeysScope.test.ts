import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, newAccount, newKey, startTestService, type Res, type TestService } from '../support/service';

// Keys limited to named merchants (preview `POST /v1/api-keys` `merchantIds`, docs/keys.md): such a key acts for its
// merchants, is 403 key_restricted for any other merchant of the account and on every operation of the whole account,
// also combined with read-only; only the account's own merchants of the key's mode can be named. And `lastUsedAt`:
// null until the key is used, set beside a request, written at most once a minute.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
}, 60_000);
afterAll(async () => {
  await svc.close();
});

const as = (apiKey: string, headers: Record<string, string> = PREVIEW) => client(svc.url, { 'Api-Key': apiKey, ...headers });
const outcome = (r: Res) => ({ status: r.status, code: r.body?.code });
const restricted = { status: 403, code: 'key_restricted' };

/** An account with merchant A (settling USDC, so it takes payments) and merchant B, its key on the preview. */
async function shop() {
  const a = await merchantWithSettlement(svc, 'Scoped');
  const call = as(a.apiKey);
  const other = await call('POST', '/v1/merchants', {
    body: { merchantName: 'Other shop', merchantEmail: 'o@x.io' },
    headers: { 'Idempotency-Key': uniqueKey() },
  });
  return { ...a, call, merchantA: a.merchantId, merchantB: other.body.merchant.id as string };
}

async function limitedKey(call: ReturnType<typeof as>, merchantIds: string[], extra: Record<string, unknown> = {}) {
  const r = await call('POST', '/v1/api-keys', { body: { name: 'Shop A', merchantIds, ...extra } });
  if (r.status !== 201) throw new Error(`key: ${r.text}`);
  return r;
}

const payment = (call: ReturnType<typeof as>, merchantId: string) =>
  call('POST', '/v1/payments', {
    body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '100' } },
    headers: { 'Merchant-Id': merchantId },
  });

it('a key limited to a merchant acts for it; another merchant and the account are 403 key_restricted', async () => {
  const s = await shop();
  const made = await limitedKey(s.call, [s.merchantA]);
  expect(made.body.apiKey).toMatchObject({ merchantIds: [s.merchantA], readOnly: false, lastUsedAt: null });
  expect((await s.call('GET', '/v1/api-keys')).body.data[0]).toMatchObject({ id: made.body.apiKey.id, merchantIds: [s.merchantA] });
  const limited = as(made.body.secret);

  const created = await payment(limited, s.merchantA);
  expect(created.status).toBe(201);
  const pid: string = created.body.paymentId;
  expect((await limited('GET', `/v1/payments/${pid}`, { headers: { 'Merchant-Id': s.merchantA } })).status).toBe(200);
  expect((await limited('GET', `/v1/merchants/${s.merchantA}`)).status).toBe(200);
  expect((await limited('GET', '/v1/merchants/payments', { headers: { 'Merchant-Id': s.merchantA } })).status).toBe(200);
  expect((await limited('GET', `/v1/gateway/payment/${pid}`)).status).toBe(200); // the gateway: open to any key

  // Another merchant of the same account, in the header or the path.
  expect(outcome(await payment(limited, s.merchantB))).toEqual(restricted);
  expect(outcome(await limited('GET', `/v1/payments/${pid}`, { headers: { 'Merchant-Id': s.merchantB } }))).toEqual(restricted);
  expect(outcome(await limited('GET', `/v1/merchants/${s.merchantB}`))).toEqual(restricted);
  expect(outcome(await limited('DELETE', `/v1/merchants/${s.merchantB}`))).toEqual(restricted);
  expect(outcome(await limited('GET', `/v1/merchants/${s.merchantB}/settlements`))).toEqual(restricted);
  // The path's merchant as the handler reads it, decoded; a path that does not decode names none of the key's.
  const direct = client(svc.directUrl, { 'Api-Key': made.body.secret, ...PREVIEW });
  expect((await direct('GET', `/v1/merchants/${s.merchantA.replace('_', '%5F')}`)).status).toBe(200);
  expect(outcome(await direct('GET', '/v1/merchants/mrch%E0%A4%A'))).toEqual(restricted);

  // Operations on the whole account, including the list of payments across merchants (refused, not filtered).
  const accountWide = [
    await limited('POST', '/v1/merchants', {
      body: { merchantName: 'Escalate', merchantEmail: 'e@x.io' },
      headers: { 'Idempotency-Key': uniqueKey() },
    }),
    await limited('GET', '/v1/merchants'),
    await limited('GET', '/v1/payments'),
    await limited('GET', '/v1/api-keys'),
    await limited('POST', '/v1/api-keys', { body: { name: 'Escalate' } }),
    await limited('GET', '/v1/audit-events'),
    await limited('GET', '/v1/balance'),
    await limited('GET', '/v1/account/settings'),
    await limited('GET', '/v1/webhook-endpoints'),
    await limited('GET', '/v1/events'),
    await as(made.body.secret, {})('GET', '/v1/merchants'), // the stable version too
  ];
  for (const r of accountWide) {
    expect(outcome(r)).toEqual(restricted);
    expect(r.body.message).toMatch(/limited to merchants/);
  }
  expect(await svc.db('merchants').where({ account_id: s.accountId, name: 'Escalate' })).toEqual([]);
  expect(await svc.db('api_keys').where({ account_id: s.accountId, name: 'Escalate' })).toEqual([]);
  expect((await svc.db('merchants').where({ id: s.merchantB }).first()).deleted_at).toBeNull();
});

it('read-only and merchant limits combine', async () => {
  const s = await shop();
  const made = await limitedKey(s.call, [s.merchantA], { readOnly: true });
  expect(made.body.apiKey).toMatchObject({ readOnly: true, merchantIds: [s.merchantA] });
  const reader = as(made.body.secret);
  expect((await reader('GET', `/v1/merchants/${s.merchantA}`)).status).toBe(200);
  const change = await payment(reader, s.merchantA);
  expect([outcome(change), change.body.message]).toEqual([restricted, expect.stringMatching(/read-only/)]);
  expect(outcome(await reader('GET', `/v1/merchants/${s.merchantB}`))).toEqual(restricted);
  expect(outcome(await reader('GET', '/v1/merchants'))).toEqual(restricted);
});

it("only the account's merchants of the key's mode, not deleted, can be named; a wallet key takes none", async () => {
  const s = await shop();
  const foreign = await merchantWithSettlement(svc, 'Foreign');
  const deleted = await s.call('POST', '/v1/merchants', {
    body: { merchantName: 'Closed', merchantEmail: 'c@x.io' },
    headers: { 'Idempotency-Key': uniqueKey() },
  });
  await s.call('DELETE', `/v1/merchants/${deleted.body.merchant.id}`);
  const before = await svc.db('api_keys').where({ account_id: s.accountId }).count<{ n: string }[]>({ n: '*' });
  const create = (merchantIds: string[], extra: Record<string, unknown> = {}, call = s.call) =>
    call('POST', '/v1/api-keys', { body: { name: 'Bad', merchantIds, ...extra } });

  const other = await create([s.merchantA, foreign.merchantId]);
  expect({ ...outcome(other), field: other.body.issues?.[0]?.field }).toEqual({ status: 403, code: 'forbidden', field: '/merchantIds/1' });
  for (const r of [await create(['mrch_0000000000000000000000']), await create([deleted.body.merchant.id])]) {
    expect({ ...outcome(r), field: r.body.issues?.[0]?.field }).toEqual({
      status: 404,
      code: 'merchant_not_found',
      field: '/merchantIds/0',
    });
  }
  const testKey = as((await newKey(s.accountId, 'partner', undefined, 'test')).apiKey);
  expect(outcome(await create([s.merchantA], {}, testKey))).toEqual({ status: 404, code: 'merchant_not_found' }); // a live merchant
  const wallet = await create([s.merchantA], { type: 'wallet' });
  expect({ ...outcome(wallet), field: wallet.body.issues?.[0]?.field }).toEqual({
    status: 400,
    code: 'params_validation',
    field: '/merchantIds',
  });
  // The contract's bounds (1 to 20 ids, no repeats), sent past the validating proxy.
  const direct = client(svc.directUrl, { 'Api-Key': s.apiKey, ...PREVIEW });
  for (const merchantIds of [[], [s.merchantA, s.merchantA], Array.from({ length: 21 }, (_, i) => `mrch_${i}`)]) {
    expect(outcome(await create(merchantIds, {}, direct))).toEqual({ status: 400, code: 'params_validation' });
  }
  expect(await svc.db('api_keys').where({ account_id: s.accountId }).count<{ n: string }[]>({ n: '*' })).toEqual(before);
});

it('lastUsedAt is null until the key is used, then set beside a request, at most once a minute', async () => {
  const a = await newAccount('Last use');
  const owner = as(a.apiKey);
  const made = await owner('POST', '/v1/api-keys', { body: { name: 'Idle' } });
  const id: string = made.body.apiKey.id;
  const lastUse = async () => (await owner('GET', '/v1/api-keys')).body.data.find((k: { id: string }) => k.id === id).lastUsedAt;
  expect(await lastUse()).toBeNull();

  const before = Date.now();
  expect((await as(made.body.secret)('GET', '/v1/merchants')).status).toBe(200);
  let at: string | null = null;
  for (let i = 0; i < 50 && !at; i++) {
    at = await lastUse();
    if (!at) await new Promise((r) => setTimeout(r, 100));
  }
  expect(at).not.toBeNull();
  expect(Date.parse(at!)).toBeGreaterThanOrEqual(before - 1000); // the database's clock
  expect(Date.parse(at!)).toBeLessThanOrEqual(Date.now() + 1000);

  // Within the minute nothing is written again, even when the row says the last use is older: no write per request.
  const old = new Date(Date.now() - 5 * 60_000);
  await svc.db('api_keys').where({ id }).update({ last_used_at: old });
  expect((await as(made.body.secret)('GET', '/v1/merchants')).status).toBe(200);
  await new Promise((r) => setTimeout(r, 300));
  expect((await svc.db('api_keys').where({ id }).first()).last_used_at).toEqual(old);
});
