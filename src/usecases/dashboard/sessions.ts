import { scopeFor } from '../../db/accountsRepo';
import { deleteSession, insertSession, setSessionMode, touchSession, type DashboardUser, type StoredSession } from '../../db/dashboardRepo';
import type { Db } from '../../db/knex';
import { newToken, tokenHash } from '../../domain/dashboard';
import { AppError } from '../../domain/errors';
import type { Mode } from '../../domain/mode';

// Dashboard sessions (docs/dashboard.md): a random token (the cookie; only its SHA-256 stored), its CSRF token and
// the mode the dashboard acts in. A session ends when unused for `idleMs`, at `maxMs` after sign-in, at sign-out.

export interface SessionSettings {
  idleMs: number;
  maxMs: number;
}

export interface Session extends StoredSession {
  /** The token's hash: what names the session in the database. */
  id: string;
}

/** A new session of the user, in live mode: its token (for the cookie) and the session. */
export async function startSession(db: Db, user: DashboardUser, s: SessionSettings): Promise<{ token: string; session: Session }> {
  const token = newToken();
  const session: Session = { id: tokenHash(token), user, csrfToken: newToken(), mode: 'live' };
  await insertSession(db, { tokenHash: session.id, userId: user.id, csrfToken: session.csrfToken, mode: session.mode, maxMs: s.maxMs });
  return { token, session };
}

/** The session of a cookie's token (used now), or 401 session_required. */
export async function sessionOf(db: Db, token: string | undefined, s: SessionSettings): Promise<Session> {
  const id = token && token.length <= 128 ? tokenHash(token) : null;
  const found = id ? await touchSession(db, id, s.idleMs) : undefined;
  if (!id || !found) throw new AppError('session_required');
  return { id, ...found };
}

export const endSession = (db: Db, session: Session) => deleteSession(db, session.id);

/** Switches what the dashboard acts on; the test scope is made at the first switch to test (as a first test key makes it). */
export async function switchMode(db: Db, session: Session, mode: Mode): Promise<void> {
  if (mode === 'test') await scopeFor(db, session.user.accountId, 'test');
  await setSessionMode(db, session.id, mode);
}
