import type { AuditActor } from '../../db/auditRepo';
import { acceptInvite as accept, insertInvite, isAccount, openInvite, userByEmail, type DashboardUser } from '../../db/dashboardRepo';
import { DASHBOARD_INVITE_TOTP, DASHBOARD_USER_TOTP, sealedAt } from '../../db/sealedColumnsRepo';
import type { Db } from '../../db/knex';
import {
  INVITE_TTL_MS,
  MAX_PASSWORD_CHARS,
  MIN_PASSWORD_CHARS,
  needsTotp,
  newToken,
  newTotpSecret,
  normalEmail,
  otpauthUrl,
  tokenHash,
  totpStep,
  type DashboardRole,
} from '../../domain/dashboard';
import { AppError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { seal, unseal, type DataKeyring } from '../../domain/sealed';
import { hashPassword } from './passwords';

// Invitations to the partner dashboard (docs/dashboard.md): made by the operator's CLI or an owner, a one-time link
// valid 7 days; its TOTP secret made with it (sealed), shown on the invitation page, enrolled when accepted.

export interface InviteDeps {
  dataKeys: DataKeyring;
  publicBaseUrl: string;
}

/** A new invitation of `email` to the account with `role`: its link and expiry. */
export async function createInvite(
  db: Db,
  deps: InviteDeps,
  req: { accountId: string; email: unknown; role: DashboardRole },
  actor: AuditActor,
): Promise<{ inviteUrl: string; expiresAt: string }> {
  const email = normalEmail(req.email);
  if (!email) throw new AppError('params_validation', undefined, [{ field: '/email', message: 'must be an email address' }]);
  if (!(await isAccount(db, req.accountId))) throw new AppError('not_found', `No account ${req.accountId}.`);
  if (await userByEmail(db, email)) throw new AppError('invalid_state', 'This email already signs in to a dashboard.');
  const id = newId('dsi');
  const token = newToken();
  const sealedTotp = seal(deps.dataKeys, newTotpSecret(), sealedAt(DASHBOARD_INVITE_TOTP, id));
  const expiresAt = await insertInvite(
    db,
    { id, tokenHash: tokenHash(token), accountId: req.accountId, email, role: req.role, sealedTotp, ttlMs: INVITE_TTL_MS },
    actor,
  );
  return { inviteUrl: `${deps.publicBaseUrl}/dashboard/#/invite/${token}`, expiresAt: expiresAt.toISOString() };
}

async function openedInvite(db: Db, keys: DataKeyring, token: unknown) {
  const invite = typeof token === 'string' && token.length <= 128 ? await openInvite(db, tokenHash(token)) : undefined;
  if (!invite) throw new AppError('invite_not_found');
  return { invite, secret: unseal(keys, invite.sealedTotp, sealedAt(DASHBOARD_INVITE_TOTP, invite.id)) };
}

/** What the invitation page shows: who is invited, to what, and the secret to enrol (404 invite_not_found). */
export async function inviteInfo(db: Db, keys: DataKeyring, token: unknown) {
  const { invite, secret } = await openedInvite(db, keys, token);
  return {
    email: invite.email,
    role: invite.role,
    accountName: invite.accountName,
    totpSecret: secret,
    otpauthUrl: otpauthUrl(secret, invite.email),
  };
}

function checkPassword(password: unknown): string {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_CHARS || password.length > MAX_PASSWORD_CHARS)
    throw new AppError('params_validation', undefined, [
      { field: '/password', message: `must be ${MIN_PASSWORD_CHARS} to ${MAX_PASSWORD_CHARS} characters` },
    ]);
  return password;
}

/**
 * Accepts an invitation: the user is made with the password and, with a valid code of the invitation's secret, TOTP
 * (required of owners: 400 totp_required without a code, 401 invalid_totp with a wrong one). The invitation is used.
 */
export async function acceptInvite(
  db: Db,
  keys: DataKeyring,
  req: { token: unknown; password: unknown; totpCode?: unknown },
): Promise<DashboardUser> {
  const { invite, secret } = await openedInvite(db, keys, req.token);
  const password = checkPassword(req.password);
  const code = req.totpCode;
  if ((code === undefined || code === null || code === '') && needsTotp(invite.role))
    throw new AppError('totp_required', 'An owner enrols a second factor: send totpCode, a code of totpSecret.', undefined, undefined, 400);
  const withTotp = code !== undefined && code !== null && code !== '';
  if (withTotp && totpStep(secret, code) === null) throw new AppError('invalid_totp');
  const id = newId('dsu');
  const sealedTotp = withTotp ? seal(keys, secret, sealedAt(DASHBOARD_USER_TOTP, id)) : null;
  const done = await accept(db, invite, { id, passwordHash: await hashPassword(password), sealedTotp });
  if (done === 'used') throw new AppError('invite_not_found');
  if (done === 'email_taken') throw new AppError('invalid_state', 'This email already signs in to a dashboard.');
  const user = await userByEmail(db, invite.email);
  if (!user) throw new Error('the user made was not found');
  return user;
}
