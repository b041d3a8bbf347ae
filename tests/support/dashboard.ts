import { totpNow } from '../../src/domain/dashboard';
import { admin, client, type Res } from './service';

// A signed-in dashboard user's HTTP client for tests (docs/dashboard.md): the session cookie and CSRF token of a
// login or an invitation accepted, sent with every request.

export const PASSWORD = 'correct horse battery staple';

export interface Signed {
  call: <T = any>(method: string, path: string, opts?: { body?: unknown; headers?: Record<string, string> }) => Promise<Res<T>>;
  cookie: string;
  csrf: string;
  res: Res;
}

/** The session cookie a response sets (`paygate_session=<token>`), and the whole Set-Cookie line. */
export function sessionCookie(r: Res): { pair: string; line: string } {
  const line = r.headers.getSetCookie().find((c) => c.startsWith('paygate_session=')) ?? '';
  return { pair: line.split(';')[0], line };
}

export function signedClient(url: string, r: Res): Signed {
  const cookie = sessionCookie(r).pair;
  const csrf: string = r.body?.csrfToken;
  const raw = client(url);
  return {
    call: (method, path, opts = {}) =>
      raw(method, path, { ...opts, headers: { Cookie: cookie, 'X-CSRF-Token': csrf, ...(opts.headers ?? {}) } }),
    cookie,
    csrf,
    res: r,
  };
}

const tokenOf = (inviteUrl: string) => inviteUrl.split('#/invite/')[1];

/** An invitation by the operator's CLI: its token. */
export async function operatorInvite(accountId: string, email: string, role = 'owner'): Promise<string> {
  const out = await admin('dashboard', 'invite', '--account', accountId, '--email', email, '--role', role);
  return tokenOf(out.inviteUrl);
}

/** Accepts an invitation with TOTP enrolled (its secret read from the invitation): the signed-in client and the secret. */
export async function join(url: string, token: string, withTotp = true): Promise<Signed & { secret: string }> {
  const call = client(url);
  const info = await call('GET', `/dashboard/auth/invite?token=${encodeURIComponent(token)}`);
  if (info.status !== 200) throw new Error(`invite: ${info.text}`);
  const body = { token, password: PASSWORD, ...(withTotp ? { totpCode: totpNow(info.body.totpSecret) } : {}) };
  const r = await call('POST', '/dashboard/auth/invite/accept', { body });
  if (r.status !== 201) throw new Error(`accept: ${r.text}`);
  return { ...signedClient(url, r), secret: info.body.totpSecret };
}

/** An owner invites a person with `role` from the dashboard, who joins (without TOTP unless `withTotp`). */
export async function invitedBy(owner: Signed, url: string, email: string, role: string, withTotp = false) {
  const r = await owner.call('POST', '/dashboard/auth/users/invite', { body: { email, role } });
  if (r.status !== 201) throw new Error(`invite by owner: ${r.text}`);
  return join(url, tokenOf(r.body.inviteUrl), withTotp);
}

export const uniqueEmail = (p = 'u') => `${p}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
