import { totpAt, totpNow } from '../../src/domain/dashboard';
import { client, newAccount, startTestService, type Res, type TestService } from '../support/service';
import { invitedBy, join, operatorInvite, PASSWORD, sessionCookie, signedClient, uniqueEmail } from '../support/dashboard';

// The partner dashboard's sign-in, sessions and people (docs/dashboard.md): an invitation from the operator's CLI,
// accepted with TOTP; login with its failures and limit; the session cookie, CSRF, idle and absolute expiry, logout;
// owners manage people. DASHBOARD_SESSION_IDLE_SECONDS makes the idle expiry short enough to wait for.

const IDLE_S = 6;
let svc: TestService;
let anon: ReturnType<typeof client>;

beforeAll(async () => {
  svc = await startTestService({ DASHBOARD_SESSION_IDLE_SECONDS: String(IDLE_S), TRUSTED_PROXY_HOPS: '1' });
  anon = client(svc.url);
}, 60_000);
afterAll(async () => {
  await svc.close();
});

const outcome = (r: Res) => ({ status: r.status, code: r.body?.code });
// Sign-in failures are counted per client address in PostgreSQL for 15 minutes: this run's address is its own.
const address = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
const login = (body: Record<string, unknown>) => anon('POST', '/dashboard/auth/login', { body, headers: { 'X-Forwarded-For': address } });

async function ownerOfNewAccount(name = 'Dash') {
  const account = await newAccount(name);
  const email = uniqueEmail('owner');
  const owner = await join(svc.url, await operatorInvite(account.accountId, email));
  return { account, email, owner };
}

it('an invitation from the CLI: shown, accepted with TOTP (required of an owner), then a session', async () => {
  const account = await newAccount('Invited Ltd');
  const email = uniqueEmail('Owner').toUpperCase();
  const token = await operatorInvite(account.accountId, email);
  const info = await anon('GET', `/dashboard/auth/invite?token=${token}`);
  expect(info.status).toBe(200);
  expect(info.body).toEqual({
    email: email.toLowerCase(),
    role: 'owner',
    accountName: 'Invited Ltd',
    totpSecret: expect.stringMatching(/^[A-Z2-7]{32}$/),
    otpauthUrl: expect.stringMatching(/^otpauth:\/\/totp\/paygate:/),
  });
  const accept = (body: Record<string, unknown>) => anon('POST', '/dashboard/auth/invite/accept', { body: { token, ...body } });
  expect(outcome(await accept({ password: PASSWORD }))).toEqual({ status: 400, code: 'totp_required' });
  const wrong = totpNow(info.body.totpSecret) === '000000' ? '111111' : '000000';
  expect(outcome(await accept({ password: PASSWORD, totpCode: wrong }))).toEqual({ status: 401, code: 'invalid_totp' });
  const short = await accept({ password: 'short', totpCode: totpNow(info.body.totpSecret) });
  expect([short.status, short.body.code, short.body.issues[0].field]).toEqual([400, 'params_validation', '/password']);

  const joined = await accept({ password: PASSWORD, totpCode: totpNow(info.body.totpSecret) });
  expect(joined.status).toBe(201);
  const user = { id: expect.stringMatching(/^dsu_/), email: email.toLowerCase(), role: 'owner', accountId: account.accountId };
  expect(joined.body).toEqual({
    user: { ...user, accountName: 'Invited Ltd', totpEnabled: true },
    csrfToken: expect.any(String),
    mode: 'live',
  });
  const { line } = sessionCookie(joined);
  expect(line).toMatch(/^paygate_session=[A-Za-z0-9_-]{43}; /);
  expect(line.split('; ').slice(1)).toEqual(expect.arrayContaining(['Path=/dashboard', 'HttpOnly', 'SameSite=Strict', 'Secure']));
  const me = signedClient(svc.url, joined);
  expect((await me.call('GET', '/dashboard/auth/session')).body).toEqual(joined.body);

  // only the SHA-256 of the session token is stored; the TOTP secret is sealed
  const token64 = me.cookie.split('=')[1];
  const rows = await svc.db('dashboard_sessions').where({ user_id: joined.body.user.id });
  expect(rows.map((r) => r.token_hash)).not.toContain(token64);
  const stored = await svc.db('dashboard_users').where({ id: joined.body.user.id }).first();
  expect(stored.totp_secret.toString('latin1')).not.toContain(info.body.totpSecret);
  expect(stored.password_hash).toMatch(/^\$argon2id\$/);

  expect(outcome(await anon('GET', `/dashboard/auth/invite?token=${token}`))).toEqual({ status: 404, code: 'invite_not_found' });
  expect(outcome(await accept({ password: PASSWORD }))).toEqual({ status: 404, code: 'invite_not_found' });
  expect(outcome(await anon('GET', '/dashboard/auth/invite?token=nope'))).toEqual({ status: 404, code: 'invite_not_found' });

  const log = await client(svc.url, { 'Api-Key': account.apiKey, 'PAY-Version': '2026-02-19.preview' })('GET', '/v1/audit-events');
  expect(log.body.data.map((e: any) => [e.action, e.actor.type])).toEqual([
    ['dashboard_user.joined', 'dashboard_user'],
    ['dashboard_user.invited', 'operator'],
  ]);
});

it('an expired invitation is not found', async () => {
  const account = await newAccount('Late');
  const token = await operatorInvite(account.accountId, uniqueEmail('late'), 'viewer');
  await svc
    .db('dashboard_invites')
    .where({ account_id: account.accountId })
    .update({ expires_at: svc.db.raw("now() - interval '1 second'") });
  expect(outcome(await anon('GET', `/dashboard/auth/invite?token=${token}`))).toEqual({ status: 404, code: 'invite_not_found' });
});

it('login: wrong email or password 401 invalid_credentials alike; TOTP required and checked; audited', async () => {
  const { account, email, owner } = await ownerOfNewAccount('Login');
  expect(outcome(await login({ email, password: 'not the password at all' }))).toEqual({ status: 401, code: 'invalid_credentials' });
  const unknown = await login({ email: uniqueEmail('nobody'), password: PASSWORD });
  expect(outcome(unknown)).toEqual({ status: 401, code: 'invalid_credentials' });
  expect(outcome(await login({ email, password: PASSWORD }))).toEqual({ status: 401, code: 'totp_required' });
  const wrong = totpNow(owner.secret) === '000000' ? '111111' : '000000';
  expect(outcome(await login({ email, password: PASSWORD, totpCode: wrong }))).toEqual({ status: 401, code: 'invalid_totp' });
  const code = totpNow(owner.secret);
  const ok = await login({ email: email.toUpperCase(), password: PASSWORD, totpCode: code });
  expect(ok.status).toBe(200);
  expect(ok.body).toMatchObject({ user: { email, role: 'owner', totpEnabled: true }, mode: 'live' });
  expect(sessionCookie(ok).pair).toMatch(/^paygate_session=/);
  expect(sessionCookie(ok).pair).not.toBe(owner.cookie);
  const log = await client(svc.url, { 'Api-Key': account.apiKey, 'PAY-Version': '2026-02-19.preview' })('GET', '/v1/audit-events');
  expect(log.body.data.slice(0, 3).map((e: any) => [e.action, e.actor, e.target])).toEqual([
    ['dashboard.login', { type: 'dashboard_user', id: ok.body.user.id }, ok.body.user.id],
    ['dashboard.login_failed', { type: 'dashboard_user', id: ok.body.user.id }, ok.body.user.id],
    ['dashboard.login_failed', { type: 'dashboard_user', id: ok.body.user.id }, ok.body.user.id],
  ]);
  // The same code again, its step used: refused as a wrong one (RFC 6238, 5.2), and counted as a failed sign-in.
  expect(outcome(await login({ email, password: PASSWORD, totpCode: code }))).toEqual({ status: 401, code: 'invalid_totp' });
  const steps = await svc.db('dashboard_totp_uses').where({ user_id: ok.body.user.id });
  expect(steps).toHaveLength(1);
});

it('at most 5 failed sign-ins per email in 15 minutes: then 429 rate_limited with Retry-After, even with the password', async () => {
  const { owner } = await ownerOfNewAccount('Limited');
  const email = uniqueEmail('dev');
  await invitedBy(owner, svc.url, email, 'developer');
  for (let i = 0; i < 5; i++) expect((await login({ email, password: `wrong password ${i}` })).status).toBe(401);
  const refused = await login({ email, password: PASSWORD });
  expect(outcome(refused)).toEqual({ status: 429, code: 'rate_limited' });
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(900);
});

it('CSRF: a change without X-CSRF-Token, or with another, is 403 csrf_failed; no session is 401 session_required', async () => {
  const { owner } = await ownerOfNewAccount('Csrf');
  const raw = client(svc.url);
  const cookie = { Cookie: owner.cookie };
  for (const headers of [cookie, { ...cookie, 'X-CSRF-Token': 'forged' }, { ...cookie, 'X-CSRF-Token': owner.csrf + 'x' }]) {
    expect(outcome(await raw('POST', '/dashboard/auth/mode', { body: { mode: 'test' }, headers }))).toEqual({
      status: 403,
      code: 'csrf_failed',
    });
    const m = await raw('POST', '/dashboard/api/v1/merchants', { body: { merchantName: 'X', merchantEmail: 'x@x.io' }, headers });
    expect(outcome(m)).toEqual({ status: 403, code: 'csrf_failed' });
    expect(outcome(await raw('POST', '/dashboard/auth/logout', { headers }))).toEqual({ status: 403, code: 'csrf_failed' });
  }
  expect((await raw('GET', '/dashboard/auth/session', { headers: cookie })).status).toBe(200); // a read needs no CSRF token
  expect((await owner.call('POST', '/dashboard/auth/mode', { body: { mode: 'test' } })).body).toEqual({ mode: 'test' });
  for (const headers of [{}, { Cookie: 'paygate_session=unknown' }] as Record<string, string>[])
    expect(outcome(await raw('GET', '/dashboard/auth/session', { headers }))).toEqual({ status: 401, code: 'session_required' });
  expect(outcome(await raw('GET', '/dashboard/api/v1/payments'))).toEqual({ status: 401, code: 'session_required' });
  expect(outcome(await raw('POST', '/dashboard/auth/users/invite', { body: {} }))).toEqual({ status: 401, code: 'session_required' });
});

it('a session unused for the idle time ends (401); so does one past its absolute expiry; logout ends one at once', async () => {
  const { owner, email } = await ownerOfNewAccount('Expiry');
  await new Promise((r) => setTimeout(r, (IDLE_S + 1) * 1000));
  // Ended unseen: the sweeper (SWEEP_INTERVAL_MS) deletes it without its being presented.
  const userId: string = owner.res.body.user.id;
  for (let i = 0; (await svc.db('dashboard_sessions').where({ user_id: userId })).length; i++) {
    if (i > 100) throw new Error('the idle session was not purged');
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(outcome(await owner.call('GET', '/dashboard/auth/session'))).toEqual({ status: 401, code: 'session_required' });

  const again = signedClient(svc.url, await login({ email, password: PASSWORD, totpCode: totpNow(owner.secret) }));
  expect((await again.call('GET', '/dashboard/auth/session')).status).toBe(200);
  await svc
    .db('dashboard_sessions')
    .where({ user_id: again.res.body.user.id })
    .update({ expires_at: svc.db.raw('now()') });
  expect(outcome(await again.call('GET', '/dashboard/auth/session'))).toEqual({ status: 401, code: 'session_required' });

  // The next step's code: the one used above is refused from now on (RFC 6238, 5.2).
  const third = signedClient(svc.url, await login({ email, password: PASSWORD, totpCode: totpAt(owner.secret, 1) }));
  const out = await third.call('POST', '/dashboard/auth/logout');
  expect(out.status).toBe(204);
  expect(sessionCookie(out).line).toMatch(/^paygate_session=; .*Max-Age=0/);
  expect(outcome(await third.call('GET', '/dashboard/auth/session'))).toEqual({ status: 401, code: 'session_required' });
}, 60_000);

it('owners invite, list and remove people; others may not (403); nobody removes themselves (409)', async () => {
  const { account, owner } = await ownerOfNewAccount('People');
  const devEmail = uniqueEmail('dev');
  const dev = await invitedBy(owner, svc.url, devEmail, 'developer');
  expect(dev.res.body.user).toMatchObject({ role: 'developer', totpEnabled: false, accountId: account.accountId });
  const viewer = await invitedBy(owner, svc.url, uniqueEmail('viewer'), 'viewer', true);
  expect(viewer.res.body.user).toMatchObject({ role: 'viewer', totpEnabled: true });

  const list = await owner.call('GET', '/dashboard/auth/users');
  expect(list.status).toBe(200);
  expect(list.body.data.map((u: any) => u.role)).toEqual(['owner', 'developer', 'viewer']);
  expect(list.body.data[1]).toEqual({
    id: dev.res.body.user.id,
    email: devEmail,
    role: 'developer',
    totpEnabled: false,
    createdAt: expect.any(String),
  });

  expect(outcome(await dev.call('GET', '/dashboard/auth/users'))).toEqual({ status: 403, code: 'forbidden' });
  const byDev = await dev.call('POST', '/dashboard/auth/users/invite', { body: { email: uniqueEmail(), role: 'owner' } });
  expect(outcome(byDev)).toEqual({ status: 403, code: 'forbidden' });
  expect(outcome(await dev.call('DELETE', `/dashboard/auth/users/${viewer.res.body.user.id}`))).toEqual({ status: 403, code: 'forbidden' });
  const badRole = await owner.call('POST', '/dashboard/auth/users/invite', { body: { email: uniqueEmail(), role: 'admin' } });
  expect([badRole.status, badRole.body.issues?.[0].field]).toEqual([400, '/role']);
  const taken = await owner.call('POST', '/dashboard/auth/users/invite', { body: { email: devEmail, role: 'viewer' } });
  expect(outcome(taken)).toEqual({ status: 409, code: 'invalid_state' });

  const self = await owner.call('DELETE', `/dashboard/auth/users/${owner.res.body.user.id}`);
  expect(outcome(self)).toEqual({ status: 409, code: 'invalid_state' });
  const removed = await owner.call('DELETE', `/dashboard/auth/users/${dev.res.body.user.id}`);
  expect(removed.status).toBe(200);
  expect(outcome(await dev.call('GET', '/dashboard/auth/session'))).toEqual({ status: 401, code: 'session_required' });
  expect(outcome(await login({ email: devEmail, password: PASSWORD }))).toEqual({ status: 401, code: 'invalid_credentials' });
  expect(outcome(await owner.call('DELETE', `/dashboard/auth/users/${dev.res.body.user.id}`))).toEqual({ status: 404, code: 'not_found' });

  const log = await client(svc.url, { 'Api-Key': account.apiKey, 'PAY-Version': '2026-02-19.preview' })('GET', '/v1/audit-events');
  expect(log.body.data[0]).toMatchObject({
    action: 'dashboard_user.removed',
    actor: { type: 'dashboard_user', id: owner.res.body.user.id },
    target: dev.res.body.user.id,
  });
  expect(log.body.data.filter((e: any) => e.action === 'dashboard_user.invited').map((e: any) => e.actor.type)).toEqual([
    'dashboard_user',
    'dashboard_user',
    'operator',
  ]);
});

it('unknown dashboard routes are 404 not_found, a wrong method 405', async () => {
  expect(outcome(await anon('GET', '/dashboard/auth/nothing'))).toEqual({ status: 404, code: 'not_found' });
  expect(outcome(await anon('GET', '/dashboard/auth/login'))).toEqual({ status: 405, code: 'method_not_allowed' });
});
