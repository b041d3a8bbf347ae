import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { Config } from '../../config';
import { AppError } from '../../domain/errors';
import { sessionOf, type Session } from '../../usecases/dashboard/sessions';
import type { Db } from '../../db/knex';

// The dashboard's session cookie and CSRF check (docs/dashboard.md). The cookie holds the session token:
// HttpOnly, SameSite=Strict, Path=/dashboard, Secure when PUBLIC_BASE_URL is https (the service itself may be
// behind a proxy that ends TLS, so this does not depend on the connection). Every request under /dashboard that
// changes something sends X-CSRF-Token, the session's own token (SameSite stops most forgeries; this the rest).

const SESSION_COOKIE = 'paygate_session';

const attributes = (config: Config) => `Path=/dashboard; HttpOnly; SameSite=Strict${config.dashboard.secureCookie ? '; Secure' : ''}`;

export function setSessionCookie(ctx: Context, config: Config, token: string): void {
  ctx.append(
    'Set-Cookie',
    `${SESSION_COOKIE}=${token}; ${attributes(config)}; Max-Age=${Math.floor(config.dashboard.sessionMaxMs / 1000)}`,
  );
}

export function clearSessionCookie(ctx: Context, config: Config): void {
  ctx.append('Set-Cookie', `${SESSION_COOKIE}=; ${attributes(config)}; Max-Age=0`);
}

/** The session token of the request's cookie. */
function cookieToken(ctx: Context): string | undefined {
  for (const part of (ctx.get('cookie') || '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === SESSION_COOKIE) return part.slice(i + 1).trim() || undefined;
  }
  return undefined;
}

const settings = (config: Config) => ({ idleMs: config.dashboard.sessionIdleMs, maxMs: config.dashboard.sessionMaxMs });

/** The request's session (401 session_required), its CSRF token checked unless the method is safe (403 csrf_failed). */
export async function requestSession(ctx: Context, db: Db, config: Config): Promise<Session> {
  const session = await sessionOf(db, cookieToken(ctx), settings(config));
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    const sent = Buffer.from(ctx.get('x-csrf-token'), 'utf8');
    const want = Buffer.from(session.csrfToken, 'utf8');
    if (sent.length !== want.length || !timingSafeEqual(sent, want)) throw new AppError('csrf_failed');
  }
  return session;
}

export const sessionSettings = settings;
