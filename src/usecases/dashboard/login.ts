import { claimTotpStep, recordDashboardAudit, userByEmail, type DashboardUser } from '../../db/dashboardRepo';
import { DASHBOARD_USER_TOTP, sealedAt } from '../../db/sealedColumnsRepo';
import type { Db } from '../../db/knex';
import { normalEmail, totpStep } from '../../domain/dashboard';
import { AppError } from '../../domain/errors';
import { unseal, type DataKeyring } from '../../domain/sealed';
import { passwordMatches } from './passwords';

// Signing in to the dashboard (docs/dashboard.md): email and password (argon2id), then the TOTP code of a user who
// has one. A wrong email and a wrong password answer alike, in about the same time (an unknown email is checked
// against a dummy hash). Failed attempts are limited per email and per client address (`LoginLimits`, shared by
// every process): beyond the limit 429 rate_limited, before the password is looked at.

/** The limits of failed sign-ins: `check` refuses (429) when over, `failed` counts one (and may refuse). */
export interface LoginLimits {
  check(email: string): Promise<void>;
  failed(email: string): Promise<void>;
}

export async function login(
  db: Db,
  keys: DataKeyring,
  limits: LoginLimits,
  req: { email: unknown; password: unknown; totpCode?: unknown },
): Promise<DashboardUser> {
  const email = normalEmail(req.email) ?? (typeof req.email === 'string' ? req.email.trim().toLowerCase().slice(0, 254) : '');
  const password = typeof req.password === 'string' && req.password.length <= 1024 ? req.password : '';
  await limits.check(email);
  const user = normalEmail(req.email) ? await userByEmail(db, email) : undefined;
  const fail = async (code: 'invalid_credentials' | 'invalid_totp'): Promise<never> => {
    if (user) await recordDashboardAudit(db, user.accountId, user.id, 'dashboard.login_failed');
    await limits.failed(email);
    throw new AppError(code);
  };
  if (!(await passwordMatches(user?.passwordHash ?? null, password)) || !user) return fail('invalid_credentials');
  if (user.sealedTotp) {
    const code = req.totpCode;
    if (code === undefined || code === null || code === '') throw new AppError('totp_required');
    const step = totpStep(unseal(keys, user.sealedTotp, sealedAt(DASHBOARD_USER_TOTP, user.id)), code);
    // A code already used (its step claimed by an earlier sign-in) is refused as a wrong one.
    if (step === null || !(await claimTotpStep(db, user.id, step))) return fail('invalid_totp');
  }
  await recordDashboardAudit(db, user.accountId, user.id, 'dashboard.login');
  return user;
}
