import type { Config } from '../../config';
import { perWindow } from '../../config/limits';
import { addressNetwork } from '../clientAddress';
import type { Caller } from '../handlerTypes';
import type { ConcurrencyCap, SharedRateLimiter } from '../rateLimit';

/**
 * Limits per account and per credential, shared by all processes (429 rate_limited with Retry-After), the cap
 * on long-polls a credential holds at once in this process, the limits on failed authentications per client
 * address and on confirm's checks on the chain.
 */
export class RequestLimits {
  constructor(
    private readonly config: Config['limits'],
    private readonly limiter: SharedRateLimiter,
    private readonly longPolls: ConcurrencyCap,
  ) {}

  async take(caller: Caller): Promise<void> {
    await this.limiter.take(`account:${caller.accountId}`, perWindow(this.config, this.config.accountPerSecond));
    await this.limiter.take(`credential:${caller.keyId}`, perWindow(this.config, this.config.credentialPerSecond));
  }

  /** A long-poll holds a slot of its credential for as long as it waits; call the release when it is done. */
  holdLongPoll(caller: Caller): () => void {
    return this.longPolls.acquire(`credential:${caller.keyId}`, this.config.longPollsPerCredential);
  }

  get trustedProxyHops(): number {
    return this.config.trustedProxyHops;
  }

  /** 429 when the client's network is over its limit of failed authentications (no query, nothing counted). */
  checkAuthFailures(address: string): Promise<void> {
    return this.limiter.check(`auth-failures:${addressNetwork(address)}`, this.authFailures());
  }

  /** Counts a failed authentication of the client's network (an IPv6 /64); 429 instead of the 401 beyond the limit. */
  takeAuthFailure(address: string): Promise<void> {
    return this.limiter.take(`auth-failures:${addressNetwork(address)}`, this.authFailures());
  }

  private authFailures() {
    return { ...perWindow(this.config, this.config.authFailuresPerIpPerSecond), what: 'failed authentications from this address' };
  }

  /** One confirm check that asks the chain (usecases/gateway/confirmChecks.ts): per payment, then per credential. */
  takeConfirmCheck = async (credential: string, paymentId: string): Promise<void> => {
    const { confirmChecksPerPaymentPerSecond: perPayment, confirmChecksPerCredentialPerSecond: perCredential } = this.config;
    await this.limiter.take(`confirm-payment:${paymentId}`, {
      ...perWindow(this.config, perPayment),
      what: 'confirm checks of this payment',
    });
    await this.limiter.take(`confirm-credential:${credential}`, {
      ...perWindow(this.config, perCredential),
      what: 'confirm checks by this credential',
    });
  };
}
