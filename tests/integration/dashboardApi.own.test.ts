import { DEVNET_USDC, newWallet } from '../support/chain';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, startTestService, type Res, type TestService } from '../support/service';
import { invitedBy, join, operatorInvite, PASSWORD, uniqueEmail, type Signed } from '../support/dashboard';

// /dashboard/api/<rest> (docs/dashboard.md): the partner API's operations through the same pipeline, the session the
// credential: its user's account and mode, read-only for a viewer, the audit log naming the person; no other
// account's objects, no gateway. And the limit of failed sign-ins per client address (DASHBOARD_LOGIN_FAILURES_PER_IP).

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ DASHBOARD_LOGIN_FAILURES_PER_IP: '3', TRUSTED_PROXY_HOPS: '1' });
}, 60_000);
afterAll(async () => {
  await svc.close();
});

const outcome = (r: Res) => ({ status: r.status, code: r.body?.code });
const ids = (r: Res) => r.body.data.map((p: { paymentId: string }) => p.paymentId);

/** A shop (a merchant settling USDC) whose account has an owner, a developer and a viewer in the dashboard. */
async function shopWithPeople(name: string) {
  const shop = await merchantWithSettlement(svc, name);
  const owner = await join(svc.url, await operatorInvite(shop.accountId, uniqueEmail('owner')));
  const developer = await invitedBy(owner, svc.url, uniqueEmail('dev'), 'developer');
  const viewer = await invitedBy(owner, svc.url, uniqueEmail('viewer'), 'viewer');
  const pay = async (api = shop.asMerchant) => {
    const r = await api('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '100' } },
    });
    if (r.status !== 201) throw new Error(`payment: ${r.text}`);
    return r.body.paymentId as string;
  };
  return { ...shop, owner, developer, viewer, pay };
}

const newMerchant = (who: Signed, headers: Record<string, string> = {}) =>
  who.call('POST', '/dashboard/api/v1/merchants', {
    body: { merchantName: 'From the dashboard', merchantEmail: 'd@x.io' },
    headers: { 'Idempotency-Key': uniqueKey(), ...headers },
  });

it("a viewer reads (GET 200) and changes nothing (403 key_restricted); the API's validation applies", async () => {
  const s = await shopWithPeople('Viewed');
  const pid = await s.pay();
  const list = await s.viewer.call('GET', '/dashboard/api/v1/payments');
  expect(list.status).toBe(200);
  expect(ids(list)).toEqual([pid]);
  expect(list.body.data[0]).toHaveProperty('livemode', true); // the preview version unless the request names one
  expect(outcome(await s.viewer.call('GET', '/dashboard/api/v1/payments?status=nonsense'))).toEqual({
    status: 400,
    code: 'params_validation',
  });
  const refund = await s.viewer.call('POST', '/dashboard/api/v1/refunds', {
    body: { paymentId: pid },
    headers: { 'Idempotency-Key': uniqueKey() },
  });
  expect(outcome(refund)).toEqual({ status: 403, code: 'key_restricted' });
  expect(outcome(await newMerchant(s.viewer))).toEqual({ status: 403, code: 'key_restricted' });
  expect(outcome(await s.viewer.call('GET', '/dashboard/api/v1/nothing'))).toEqual({ status: 404, code: 'not_found' });
});

it('a developer creates a merchant (201); the audit log names the dashboard user; an Api-Key sent is ignored', async () => {
  const s = await shopWithPeople('Developed');
  const other = await merchantWithSettlement(svc, 'Elsewhere');
  const made = await newMerchant(s.developer, { 'Api-Key': other.apiKey });
  expect(made.status).toBe(201);
  const merchantId: string = made.body.merchant.id;
  expect((await s.api('GET', `/v1/merchants/${merchantId}`)).status).toBe(200); // in the session's account
  expect((await other.api('GET', `/v1/merchants/${merchantId}`)).status).toBe(403);
  const log = await s.developer.call('GET', '/dashboard/api/v1/audit-events?limit=1');
  expect(log.body.data[0]).toMatchObject({
    action: 'merchant.created',
    actor: { type: 'dashboard_user', id: s.developer.res.body.user.id },
    target: merchantId,
  });
  const key = await s.developer.call('POST', '/dashboard/api/v1/api-keys', { body: { name: 'From the dashboard' } });
  expect(key.status).toBe(201);
  const keyLog = await s.api('GET', '/v1/audit-events?limit=1', { headers: { 'PAY-Version': '2026-02-19.preview' } });
  expect(keyLog.body.data[0]).toMatchObject({
    action: 'api_key.created',
    actor: { type: 'dashboard_user', id: s.developer.res.body.user.id },
  });
  expect((await s.api('GET', '/v1/api-keys', { headers: { 'PAY-Version': '2026-02-19.preview' } })).status).toBe(200);
});

it("no other account's objects (403 as through the API, 404 unknown) and no gateway (403 forbidden) through the dashboard", async () => {
  const a = await shopWithPeople('Account A');
  const b = await merchantWithSettlement(svc, 'Account B');
  const theirs = (
    await b.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '100' } },
    })
  ).body.paymentId as string;
  // as the API answers any key of account A: another account's object is 403 forbidden (src/domain/mode.ts `ownedBy`)
  const read = await a.owner.call('GET', `/dashboard/api/v1/payments/${theirs}`, { headers: { 'Merchant-Id': a.merchantId } });
  expect(outcome(read)).toEqual({ status: 403, code: 'forbidden' });
  const asKey = await a.asMerchant('GET', `/v1/payments/${theirs}`);
  expect(outcome(asKey)).toEqual(outcome(read));
  const unknown = await a.owner.call('GET', `/dashboard/api/v1/payments/pay_0000000000000000000000`, {
    headers: { 'Merchant-Id': a.merchantId },
  });
  expect(unknown.status).toBe(404);
  const refund = await a.owner.call('POST', '/dashboard/api/v1/refunds', {
    body: { paymentId: theirs },
    headers: { 'Idempotency-Key': uniqueKey(), 'Merchant-Id': a.merchantId },
  });
  expect([403, 404]).toContain(refund.status);
  expect(await svc.db('refunds').where({ payment_id: theirs })).toEqual([]);
  expect(ids(await a.owner.call('GET', '/dashboard/api/v1/payments'))).toEqual([]);
  const gateway = await a.owner.call('GET', `/dashboard/api/v1/gateway/payment/${theirs}`);
  expect(outcome(gateway)).toEqual({ status: 403, code: 'forbidden' });
});

it('the mode switch: the test mode sees test payments only, the live mode live ones', async () => {
  const s = await shopWithPeople('Modes');
  const live = await s.pay();
  const dev = s.developer;
  expect(ids(await dev.call('GET', '/dashboard/api/v1/payments'))).toEqual([live]);
  const bad = await dev.call('POST', '/dashboard/auth/mode', { body: { mode: 'sandbox' } });
  expect([bad.status, bad.body.code, bad.body.issues[0].field]).toEqual([400, 'params_validation', '/mode']);
  expect((await dev.call('POST', '/dashboard/auth/mode', { body: { mode: 'test' } })).body).toEqual({ mode: 'test' });
  expect((await dev.call('GET', '/dashboard/auth/session')).body.mode).toBe('test');
  expect(ids(await dev.call('GET', '/dashboard/api/v1/payments'))).toEqual([]);

  // a test merchant and payment, made through the dashboard in test mode
  const m = await newMerchant(dev);
  const merchantId: string = m.body.merchant.id;
  const settle = await dev.call('POST', `/dashboard/api/v1/merchants/${merchantId}/settlements/crypto`, {
    body: { settlements: [{ asset: DEVNET_USDC, destination: `eip155:31337:${newWallet()}` }] },
    headers: { 'Idempotency-Key': uniqueKey() },
  });
  expect(settle.status).toBe(201);
  const made = await dev.call('POST', '/dashboard/api/v1/payments', {
    body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '100' } },
    headers: { 'Merchant-Id': merchantId },
  });
  expect(made.status).toBe(201);
  const inTest = await dev.call('GET', '/dashboard/api/v1/payments');
  expect(ids(inTest)).toEqual([made.body.paymentId]);
  expect(inTest.body.data[0].livemode).toBe(false);
  expect((await s.api('GET', `/v1/merchants/${merchantId}`)).status).toBe(404); // not in the live mode

  expect(ids(await s.viewer.call('GET', '/dashboard/api/v1/payments'))).toEqual([live]); // each session its own mode
  expect((await dev.call('POST', '/dashboard/auth/mode', { body: { mode: 'live' } })).status).toBe(200);
  expect(ids(await dev.call('GET', '/dashboard/api/v1/payments'))).toEqual([live]);
});

it('at most DASHBOARD_LOGIN_FAILURES_PER_IP failed sign-ins per client address, whatever the emails', async () => {
  // failures are counted per address in PostgreSQL for 15 minutes, whichever service: an address of this run's own
  const headers = { 'X-Forwarded-For': `2001:db8:${Math.floor(Math.random() * 65535).toString(16)}::1` };
  const login = (email: string, password: string) =>
    client(svc.url)('POST', '/dashboard/auth/login', { body: { email, password }, headers });
  for (let i = 0; i < 3; i++) expect((await login(uniqueEmail('guess'), PASSWORD)).status).toBe(401);
  const refused = await login(uniqueEmail('guess'), PASSWORD);
  expect(outcome(refused)).toEqual({ status: 429, code: 'rate_limited' });
  const sameNetwork = { 'X-Forwarded-For': headers['X-Forwarded-For'].replace(/::1$/, '::2') }; // an IPv6 /64 counts as one
  const neighbour = await client(svc.url)('POST', '/dashboard/auth/login', {
    body: { email: uniqueEmail(), password: PASSWORD },
    headers: sameNetwork,
  });
  expect(outcome(neighbour)).toEqual({ status: 429, code: 'rate_limited' });
  expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
});
