import { AppError } from '../../domain/errors';
import type { ChainWork, DevelopmentChain } from '../../domain/chain';

// The one rule of who may use the test helpers (docs/testmode.md, "Test helpers"): a test key, on a development chain
// of this instance (anvil, where its node's cheats exist). Anyone else gets 404 not_found, as if the route did not
// exist for them: a live key learns nothing of the helpers, a payment on a real chain is never touched.

/** A key's mode. Until keys carry one (test keys, issue 32), a missing mode counts as test. */
type KeyMode = 'live' | 'test';
export interface Principal {
  accountId: string;
  mode?: KeyMode;
}

/**
 * The development chain the caller may drive for a subject on `chainId`, or 404 not_found. A payment not confirmed yet
 * has no chain (null): then the instance must run a development chain, and its first is answered. A subject the helper
 * cannot use (an unknown payment, a malformed account) is its own refusal, said to a test key only.
 */
export function testHelperChain(caller: Principal, chainWork: ChainWork, subject: { chainId: string | null } | AppError): DevelopmentChain {
  if ((caller.mode ?? 'test') !== 'test') throw new AppError('not_found');
  if (subject instanceof AppError) throw subject;
  const ids = subject.chainId ? [subject.chainId] : chainWork.settlingChains().map((c) => c.chainId);
  for (const id of ids) {
    const chain = chainWork.developmentChain(id);
    if (chain) return chain;
  }
  throw new AppError('not_found');
}
