import { ConfigError, int } from './env';

// The partner dashboard's settings (docs/dashboard.md, docs/configuration.md).

export interface DashboardSettings {
  /** A session unused this long ends (DASHBOARD_SESSION_IDLE_MINUTES, or DASHBOARD_SESSION_IDLE_SECONDS). */
  sessionIdleMs: number;
  /** A session ends this long after sign-in, used or not (DASHBOARD_SESSION_MAX_HOURS). */
  sessionMaxMs: number;
  /** Failed sign-ins per email, and per client network, in 15 minutes; then 429 rate_limited. */
  loginFailuresPerEmail: number;
  loginFailuresPerIp: number;
  /** Whether the session cookie is `Secure` (PUBLIC_BASE_URL is https). */
  secureCookie: boolean;
}

export function dashboardSettings(env: NodeJS.ProcessEnv, publicBaseUrl: string): DashboardSettings {
  const seconds = env.DASHBOARD_SESSION_IDLE_SECONDS;
  if (seconds && env.DASHBOARD_SESSION_IDLE_MINUTES)
    throw new ConfigError('Set DASHBOARD_SESSION_IDLE_MINUTES or DASHBOARD_SESSION_IDLE_SECONDS, not both');
  const idleMs = seconds
    ? int(env, 'DASHBOARD_SESSION_IDLE_SECONDS', 1800, 1, 7 * 24 * 3600) * 1000
    : int(env, 'DASHBOARD_SESSION_IDLE_MINUTES', 30, 1, 7 * 24 * 60) * 60_000;
  return {
    sessionIdleMs: idleMs,
    sessionMaxMs: int(env, 'DASHBOARD_SESSION_MAX_HOURS', 12, 1, 24 * 30) * 3600_000,
    loginFailuresPerEmail: int(env, 'DASHBOARD_LOGIN_FAILURES_PER_EMAIL', 5, 1, 1000),
    loginFailuresPerIp: int(env, 'DASHBOARD_LOGIN_FAILURES_PER_IP', 20, 1, 100_000),
    secureCookie: publicBaseUrl.startsWith('https:'),
  };
}
