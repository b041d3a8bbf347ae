import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

// The partner dashboard's people and rules (docs/dashboard.md): roles, passwords, invitation and session tokens
// (random, only their SHA-256 stored), TOTP codes.

const DASHBOARD_ROLES = ['owner', 'developer', 'viewer'] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

export const isDashboardRole = (v: unknown): v is DashboardRole =>
  typeof v === 'string' && (DASHBOARD_ROLES as readonly string[]).includes(v);

/** Owners manage people; viewers only read (their requests through /dashboard/api are read-only, as a read-only key's). */
export const managesPeople = (role: DashboardRole): boolean => role === 'owner';
export const readsOnly = (role: DashboardRole): boolean => role === 'viewer';
/** Owners must enrol a second factor when they join; others may. */
export const needsTotp = (role: DashboardRole): boolean => role === 'owner';

export const MIN_PASSWORD_CHARS = 12;
/** Longer passwords are refused (hashing megabytes would be a cheap way to spend the service's CPU). */
export const MAX_PASSWORD_CHARS = 1024;
export const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;

/** Emails as stored and compared: trimmed, in lower case; null when it is not an email address at all. */
export function normalEmail(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const e = raw.trim().toLowerCase();
  return e.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e) ? e : null;
}

/** A random token (invitation, session, CSRF): 32 bytes, base64url. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** What is stored of a token. */
export const tokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new TOTP secret (160 bits, base32) for a user. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

const TOTP_PERIOD_S = 30;
const totpOf = (secret: string, label = 'dashboard') =>
  new TOTP({ issuer: 'paygate', label, secret: Secret.fromBase32(secret), digits: 6, period: TOTP_PERIOD_S, algorithm: 'SHA1' });

/** The otpauth:// URL an authenticator app scans. */
export const otpauthUrl = (secret: string, email: string): string => totpOf(secret, email).toString();

/**
 * The 30-second step whose code `code` is: now, a step before or a step after (clock drift); null when none. A step
 * accepted once is refused after (`claimTotpStep`), so that a code seen by someone else does not sign in again.
 */
export function totpStep(secret: string, code: unknown, nowMs = Date.now()): number | null {
  if (typeof code !== 'string' || !/^[0-9]{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, window: 1, timestamp: nowMs });
  return delta === null ? null : Math.floor(nowMs / 1000 / TOTP_PERIOD_S) + delta;
}

/** The code of a secret `steps` steps from now (tests: a fresh code for each sign-in of one user). */
export const totpAt = (secret: string, steps: number): string =>
  totpOf(secret).generate({ timestamp: Date.now() + steps * TOTP_PERIOD_S * 1000 });

/** The current code of a secret (tests and the CLI's checks). */
export const totpNow = (secret: string): string => totpOf(secret).generate();
