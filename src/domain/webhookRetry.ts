// Retry schedule of a webhook delivery: exponential backoff with "equal jitter" (half the delay fixed, half
// random), so that receivers recovering from an outage are not hit by every queued delivery at once.
// With the defaults (5 s base, 6 h cap) attempts come at about 5 s, 10 s, 20 s, ... then every 3 to 6 h,
// until the delivery is older than the retry window (3 days) and gives up.

export interface RetryPolicy {
  baseMs: number;
  maxDelayMs: number;
  maxAgeMs: number;
}

/** Delay before attempt number `attempts + 1`, after `attempts` failed ones (attempts >= 1). */
export function retryDelayMs(policy: RetryPolicy, attempts: number, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** Math.min(attempts - 1, 30));
  return Math.round(exp / 2 + (exp / 2) * random());
}

/** When to try again, or null when the retry window has closed. */
export function nextAttemptAt(policy: RetryPolicy, createdAt: Date, attempts: number, now: Date, random?: () => number): Date | null {
  const next = new Date(now.getTime() + retryDelayMs(policy, attempts, random));
  return next.getTime() - createdAt.getTime() > policy.maxAgeMs ? null : next;
}
