import { int } from './env';

// What one caller may consume: requests per account, credential and client address, confirm checks on the
// chain, long-polls and quotes. docs/configuration.md gives each default; bench/README.md the figures they were chosen from.

export interface LimitsConfig {
  /** API requests per second per account (all its keys and apps together), across all processes. */
  accountPerSecond: number;
  /** API requests per second per credential (an API key or an app), across all processes. */
  credentialPerSecond: number;
  /** Requests per second per client IP on the unauthenticated hosted endpoints, across all processes. */
  ipPerSecond: number;
  /**
   * Failed authentications per second per client address, across all processes: beyond it, requests from the
   * address whose credentials this process has not verified already are refused without a database read.
   */
  authFailuresPerIpPerSecond: number;
  /** Confirms checked on the chain (signature, simulation) per second per credential, and per payment. */
  confirmChecksPerCredentialPerSecond: number;
  confirmChecksPerPaymentPerSecond: number;
  /** How long a confirm refused by the chain check is answered again from memory (same option and signature). */
  confirmRefusalCacheMs: number;
  /** Proxies in front of the service that append to X-Forwarded-For (0: the socket address is the client IP). */
  trustedProxyHops: number;
  /** Concurrent long-polls per credential, and per IP on the hosted status, in each process. */
  longPollsPerCredential: number;
  longPollsPerIp: number;
  /** Options kept per payment: older unconfirmed ones are purged when a quote would exceed it. */
  optionsPerPayment: number;
  /** Valid quotes of one payment, all accounts and callers together (docs/limits.md). */
  optionsLivePerPayment: number;
  /** Valid quotes of one payment that one caller (credential, or the pay page from one client address) holds. */
  optionsLivePerPaymentCaller: number;
  /** How long an expired quote is kept, so that a late confirm learns it expired (409 quote_expired), not 404. */
  optionsPurgeAfterS: number;
  /** The window the per-second limits count in (1 s; longer windows scale each limit with it). */
  windowMs: number;
}

export function limitsConfig(env: NodeJS.ProcessEnv): LimitsConfig {
  return {
    accountPerSecond: int(env, 'RATE_LIMIT_ACCOUNT_PER_S', 2000, 1, 1_000_000),
    credentialPerSecond: int(env, 'RATE_LIMIT_CREDENTIAL_PER_S', 1000, 1, 1_000_000),
    ipPerSecond: int(env, 'RATE_LIMIT_IP_PER_S', 50, 1, 1_000_000),
    authFailuresPerIpPerSecond: int(env, 'RATE_LIMIT_AUTH_FAILURES_PER_IP_PER_S', 10, 1, 1_000_000),
    confirmChecksPerCredentialPerSecond: int(env, 'RATE_LIMIT_CONFIRM_CREDENTIAL_PER_S', 100, 1, 1_000_000),
    confirmChecksPerPaymentPerSecond: int(env, 'RATE_LIMIT_CONFIRM_PAYMENT_PER_S', 5, 1, 1_000_000),
    confirmRefusalCacheMs: int(env, 'CONFIRM_REFUSAL_CACHE_MS', 2000, 0, 600_000),
    trustedProxyHops: int(env, 'TRUSTED_PROXY_HOPS', 0, 0, 16),
    longPollsPerCredential: int(env, 'LONGPOLL_MAX_PER_CREDENTIAL', 20_000, 1, 1_000_000),
    longPollsPerIp: int(env, 'LONGPOLL_MAX_PER_IP', 20, 1, 1_000_000),
    optionsPerPayment: int(env, 'OPTIONS_MAX_PER_PAYMENT', 50, 1, 10_000),
    optionsLivePerPayment: int(env, 'OPTIONS_MAX_LIVE_PER_PAYMENT', 500, 1, 100_000),
    optionsLivePerPaymentCaller: int(env, 'OPTIONS_MAX_LIVE_PER_PAYMENT_CALLER', 100, 1, 100_000),
    optionsPurgeAfterS: int(env, 'OPTIONS_PURGE_AFTER_S', 600, 0, 86_400),
    windowMs: int(env, 'RATE_LIMIT_WINDOW_MS', 1000, 100, 3_600_000),
  };
}

/** A per-second limit as a count per window (RATE_LIMIT_WINDOW_MS: a longer window allows as many per second on average). */
export function perWindow(limits: Pick<LimitsConfig, 'windowMs'>, perSecond: number): { limit: number; windowMs: number } {
  return { limit: Math.max(1, Math.round((perSecond * limits.windowMs) / 1000)), windowMs: limits.windowMs };
}
