import type { Config } from '../../config';
import type { Caller } from '../handlerTypes';
import type { ConcurrencyCap, SharedRateLimiter } from '../rateLimit';

/**
 * Limits per account and per credential, shared by all processes (429 rate_limited with Retry-After), and
 * the cap on long-polls a credential holds at once in this process.
 */
export class RequestLimits {
  constructor(
    private readonly config: Config['limits'],
    private readonly limiter: SharedRateLimiter,
    private readonly longPolls: ConcurrencyCap,
  ) {}

  // The limits are per second; a longer window (RATE_LIMIT_WINDOW_MS) allows as many per second on average.
  private perSecond(limit: number) {
    return { limit: Math.max(1, Math.round((limit * this.config.windowMs) / 1000)), windowMs: this.config.windowMs };
  }

  async take(caller: Caller): Promise<void> {
    await this.limiter.take(`account:${caller.accountId}`, this.perSecond(this.config.accountPerSecond));
    await this.limiter.take(`credential:${caller.keyId}`, this.perSecond(this.config.credentialPerSecond));
  }

  /** A long-poll holds a slot of its credential for as long as it waits; call the release when it is done. */
  holdLongPoll(caller: Caller): () => void {
    return this.longPolls.acquire(`credential:${caller.keyId}`, this.config.longPollsPerCredential);
  }
}
