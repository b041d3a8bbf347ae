import { AppError } from './errors';

// Test mode (docs/testmode.md). The key alone chooses the mode. An account's test objects live under its test
// scope, `acct_test_<the same 22 characters>` (an accounts row of its own), its live objects under the account id
// itself: every repository scopes by that one id, so a scope sees only its own mode's objects.

export type Mode = 'live' | 'test';

const TEST_SCOPE = /^acct_test_([0-9A-Za-z]{22})$/;

export const testScopeOf = (accountId: string): string => `acct_test_${accountId.slice('acct_'.length)}`;

export const modeOfScope = (scope: string): Mode => (TEST_SCOPE.test(scope) ? 'test' : 'live');

/** Whether objects of this scope are live (`livemode` on the wire of 2026-02-19.preview). */
export const isLivemode = (scope: string): boolean => modeOfScope(scope) === 'live';

/** The account a scope belongs to (a test scope's live account). */
const accountOfScope = (scope: string): string => {
  const m = TEST_SCOPE.exec(scope);
  return m ? `acct_${m[1]}` : scope;
};

/**
 * The object found, when the caller's scope may see it: `notFound` when there is no such object or
 * it is of the caller account's other mode (no oracle: exactly as an id that does not exist), 403 when it is
 * another account's.
 */
export function ownedBy<T extends { accountId: string }>(
  found: T | undefined,
  scope: string,
  notFound: () => AppError,
  forbidden?: string,
): T {
  if (found?.accountId === scope) return found;
  if (!found || accountOfScope(found.accountId) === accountOfScope(scope)) throw notFound();
  throw new AppError('forbidden', forbidden);
}
