import type { Context } from 'koa';
import type { Config } from '../../config';
import type { LoginLimits } from '../../usecases/dashboard/login';
import { addressNetwork, clientAddress } from '../clientAddress';
import type { SharedRateLimiter } from '../rateLimit';

// Failed dashboard sign-ins, limited per email and per client network (an IPv6 /64) in fixed windows of 15 minutes,
// counted in PostgreSQL with every process's (rateLimit.ts): beyond either limit, 429 rate_limited with Retry-After.

const WINDOW_MS = 15 * 60_000;

export function loginLimits(ctx: Context, config: Config, limiter: SharedRateLimiter): LoginLimits {
  const network = addressNetwork(clientAddress(ctx, config.limits.trustedProxyHops));
  const perEmail = { limit: config.dashboard.loginFailuresPerEmail, windowMs: WINDOW_MS, what: 'failed sign-ins for this email' };
  const perIp = { limit: config.dashboard.loginFailuresPerIp, windowMs: WINDOW_MS, what: 'failed sign-ins from this address' };
  return {
    async check(email) {
      await limiter.checkShared(`dashboard-login-ip:${network}`, perIp);
      await limiter.checkShared(`dashboard-login-email:${email}`, perEmail);
    },
    async failed(email) {
      await limiter.take(`dashboard-login-ip:${network}`, perIp);
      await limiter.take(`dashboard-login-email:${email}`, perEmail);
    },
  };
}
