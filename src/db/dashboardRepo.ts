import type { DashboardRole } from '../domain/dashboard';
import type { Mode } from '../domain/mode';
import { recordAudit, type AuditActor } from './auditRepo';
import { Db, inTransaction, knexOf } from './knex';

// The partner dashboard's tables (migrations 20270101090000-20270101090200): users, invitations, sessions. Tokens
// are stored as their SHA-256 only; TOTP secrets sealed (src/db/sealedColumnsRepo.ts). Expiry is the database's
// clock (src/db/clock.ts), so every process agrees on it.

export interface DashboardUser {
  id: string;
  accountId: string;
  accountName: string;
  email: string;
  role: DashboardRole;
  passwordHash: string;
  /** Sealed for (dashboard_users, totp_secret, id); null without a second factor. */
  sealedTotp: Buffer | null;
  createdAt: Date;
}

export interface StoredInvite {
  id: string;
  accountId: string;
  accountName: string;
  email: string;
  role: DashboardRole;
  /** Sealed for (dashboard_invites, totp_secret, id). */
  sealedTotp: Buffer;
  expiresAt: Date;
}

export interface StoredSession {
  user: DashboardUser;
  csrfToken: string;
  mode: Mode;
}

const toUser = (r: Record<string, any>): DashboardUser => ({
  id: r.id,
  accountId: r.account_id,
  accountName: r.account_name,
  email: r.email,
  role: r.role,
  passwordHash: r.password_hash,
  sealedTotp: r.totp_secret,
  createdAt: r.created_at,
});

const users = (db: Db) =>
  knexOf(db)('dashboard_users as u').join('accounts as a', 'a.id', 'u.account_id').select('u.*', 'a.name as account_name');

export async function userByEmail(db: Db, email: string): Promise<DashboardUser | undefined> {
  const r = await users(db).where('u.email', email).first();
  return r && toUser(r);
}

export async function usersOf(db: Db, accountId: string): Promise<DashboardUser[]> {
  return (
    await users(db)
      .where('u.account_id', accountId)
      .orderBy([{ column: 'u.created_at' }, { column: 'u.id' }])
  ).map(toUser);
}

export async function isAccount(db: Db, accountId: string): Promise<boolean> {
  return Boolean(await knexOf(db)('accounts').where({ id: accountId, livemode: true }).first('id'));
}

/** A new invitation and its audit event, together; `sealTotp` seals the secret for the invitation's row. */
export async function insertInvite(
  db: Db,
  i: { id: string; tokenHash: string; accountId: string; email: string; role: DashboardRole; sealedTotp: Buffer; ttlMs: number },
  actor: AuditActor,
): Promise<Date> {
  return inTransaction(db, async (trx) => {
    const [row] = await knexOf(trx)('dashboard_invites')
      .insert({
        id: i.id,
        token_hash: i.tokenHash,
        account_id: i.accountId,
        email: i.email,
        role: i.role,
        totp_secret: i.sealedTotp,
        expires_at: knexOf(trx).raw(`now() + ? * interval '1 millisecond'`, [i.ttlMs]),
      })
      .returning('expires_at');
    await recordAudit(trx, i.accountId, actor, 'dashboard_user.invited', i.id);
    return row.expires_at as Date;
  });
}

/** The invitation of a token, unless used or expired. */
export async function openInvite(db: Db, tokenHash: string): Promise<StoredInvite | undefined> {
  const r = await knexOf(db)('dashboard_invites as i')
    .join('accounts as a', 'a.id', 'i.account_id')
    .where('i.token_hash', tokenHash)
    .whereNull('i.used_at')
    .where('i.expires_at', '>', knexOf(db).raw('now()'))
    .first('i.*', 'a.name as account_name');
  return (
    r && {
      id: r.id,
      accountId: r.account_id,
      accountName: r.account_name,
      email: r.email,
      role: r.role,
      sealedTotp: r.totp_secret,
      expiresAt: r.expires_at,
    }
  );
}

/**
 * Uses the invitation (once: null when it was used meanwhile, or the email has a user already) and makes its user,
 * with the audit event, in one transaction.
 */
export async function acceptInvite(
  db: Db,
  invite: StoredInvite,
  u: { id: string; passwordHash: string; sealedTotp: Buffer | null },
): Promise<'used' | 'email_taken' | 'ok'> {
  return inTransaction(db, async (trx) => {
    const k = knexOf(trx);
    const used = await k('dashboard_invites')
      .where({ id: invite.id })
      .whereNull('used_at')
      .update({ used_at: k.raw('now()') });
    if (!used) return 'used';
    const inserted = await k('dashboard_users')
      .insert({
        id: u.id,
        account_id: invite.accountId,
        email: invite.email,
        role: invite.role,
        password_hash: u.passwordHash,
        totp_secret: u.sealedTotp,
      })
      .onConflict('email')
      .ignore()
      .returning('id');
    if (!inserted.length) return 'email_taken';
    await recordAudit(trx, invite.accountId, { type: 'dashboard_user', id: u.id }, 'dashboard_user.joined', u.id);
    return 'ok';
  });
}

/**
 * Records that `userId` signed in with the code of TOTP step `step`: false when that step was used already (a code
 * used twice). Steps older than the validation window are forgotten.
 */
export async function claimTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const k = knexOf(db);
  await k('dashboard_totp_uses')
    .where('user_id', userId)
    .where('step', '<', step - 2)
    .delete();
  const inserted = await k('dashboard_totp_uses')
    .insert({ user_id: userId, step })
    .onConflict(['user_id', 'step'])
    .ignore()
    .returning('step');
  return inserted.length > 0;
}

/** Removes a user of the account (their sessions go with them); false when the account has no such user. */
export async function deleteUser(db: Db, accountId: string, userId: string, actor: AuditActor): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const n = await knexOf(trx)('dashboard_users').where({ id: userId, account_id: accountId }).delete();
    if (n) await recordAudit(trx, accountId, actor, 'dashboard_user.removed', userId);
    return n > 0;
  });
}

export async function insertSession(
  db: Db,
  s: { tokenHash: string; userId: string; csrfToken: string; mode: Mode; maxMs: number },
): Promise<void> {
  const k = knexOf(db);
  // The user's sessions past their absolute expiry go at each sign-in (a session found expired goes when presented).
  await k('dashboard_sessions').where({ user_id: s.userId }).where('expires_at', '<=', k.raw('now()')).delete();
  await k('dashboard_sessions').insert({
    token_hash: s.tokenHash,
    user_id: s.userId,
    csrf_token: s.csrfToken,
    mode: s.mode,
    expires_at: k.raw(`now() + ? * interval '1 millisecond'`, [s.maxMs]),
  });
}

/**
 * The session of a token, unless past its absolute expiry or unused for longer than `idleMs`; it counts as used now.
 * Its last use is written at most once per tenth of the idle time (a minute at most), not on every request. Expired
 * sessions found are deleted.
 */
export async function touchSession(db: Db, tokenHash: string, idleMs: number): Promise<StoredSession | undefined> {
  const k = knexOf(db);
  const { rows } = await k.raw(
    `WITH s AS (
       SELECT token_hash, user_id, csrf_token, mode, last_seen_at FROM dashboard_sessions
        WHERE token_hash = ? AND expires_at > now() AND last_seen_at > now() - ? * interval '1 millisecond'),
     touched AS (
       UPDATE dashboard_sessions d SET last_seen_at = now() FROM s
        WHERE d.token_hash = s.token_hash AND s.last_seen_at < now() - ? * interval '1 millisecond')
     SELECT user_id, csrf_token, mode FROM s`,
    [tokenHash, idleMs, Math.min(60_000, Math.floor(idleMs / 10))],
  );
  if (!rows.length) {
    await k('dashboard_sessions').where({ token_hash: tokenHash }).delete();
    return undefined;
  }
  const r = await users(db).where('u.id', rows[0].user_id).first();
  return r && { user: toUser(r), csrfToken: rows[0].csrf_token, mode: rows[0].mode };
}

/**
 * Deletes the sessions that ended unseen (past their absolute expiry, or unused for `idleMs`), the TOTP steps that
 * left the validation window, and invitations a day past their expiry: a batch of each per call.
 */
export async function purgeEnded(db: Db, idleMs: number): Promise<void> {
  const k = knexOf(db);
  await k.raw(
    `DELETE FROM dashboard_sessions WHERE token_hash IN (SELECT token_hash FROM dashboard_sessions
      WHERE expires_at <= now() OR last_seen_at <= now() - ? * interval '1 millisecond' LIMIT 1000)`,
    [idleMs],
  );
  await k.raw(
    `DELETE FROM dashboard_totp_uses WHERE (user_id, step) IN (SELECT user_id, step FROM dashboard_totp_uses
      WHERE step < floor(extract(epoch from now()) / 30) - 2 LIMIT 1000)`,
  );
  await k.raw(
    `DELETE FROM dashboard_invites WHERE id IN (SELECT id FROM dashboard_invites
      WHERE expires_at < now() - interval '1 day' LIMIT 1000)`,
  );
}

export async function setSessionMode(db: Db, tokenHash: string, mode: Mode): Promise<void> {
  await knexOf(db)('dashboard_sessions').where({ token_hash: tokenHash }).update({ mode });
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await knexOf(db)('dashboard_sessions').where({ token_hash: tokenHash }).delete();
}

export const recordDashboardAudit = (db: Db, accountId: string, userId: string, action: string) =>
  recordAudit(db, accountId, { type: 'dashboard_user', id: userId }, action, userId);
