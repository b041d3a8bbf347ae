import type { Db } from '../db/knex';
import type { Config } from '../config';
import { AppError } from '../domain/errors';
import { recentReverts, type RecentReverts, type RevertDimension, type RevertScope } from '../db/revertsRepo';

// A submission that reverts costs the relayer its gas and whoever signed it nothing. Confirm simulates as the chain
// will run it (src/usecases/authorizationCheck.ts), but state can change between confirm and inclusion (a balance
// moved away, or spent by another confirm running at the same time; a contract wallet that changes its mind). So
// reverted collect and direct transactions of the last 24 hours are counted per buyer address (on any chain), per
// credential that confirmed (key id or app id) and per account (its payments), those the payer caused only: not a
// revert the token caused (paused, or a party blacklisted, at that block), nor one outbid by a copy that paid the
// payment (src/db/relayer/transactions.ts, RevertCause); at the budget (REVERT_BUDGET_PER_BUYER,
// REVERT_BUDGET_PER_CREDENTIAL, REVERT_BUDGET_PER_ACCOUNT) confirms are refused, 429 too_many_reverts, until the
// oldest counted revert is a day old.
// Submissions still in flight may yet revert, so they count too: always a buyer's (one balance confirmed for several
// payments at once: all simulations pass, all but one submission revert), a credential's or an account's once it has
// a revert in the window (before that, in-flight payments of many buyers are its ordinary traffic, not a risk to cap).
// The check before the confirm's transaction refuses early; the one in it (`lock`) decides, one confirm of a buyer,
// credential or account at a time, so confirms at once never go past a budget that counts them
// (tests/integration/revertBudget.test.ts, contractWallets.test.ts).

/** When a refusal is for submissions in flight: they are mined within a few blocks. */
const IN_FLIGHT_RETRY_S = 5;

const WHO: Record<RevertDimension, string> = {
  buyerAddress: "this buyer address's",
  credential: "this credential's",
  accountId: "this account's payments'",
};

export async function checkRevertBudget(db: Db, budget: Config['revertBudget'], scope: RevertScope, lock = false): Promise<void> {
  const r = await recentReverts(db, scope, lock);
  const max: Record<RevertDimension, number> = {
    buyerAddress: budget.perBuyer,
    credential: budget.perCredential,
    accountId: budget.perAccount,
  };
  const inFlight = (d: RevertDimension) => (d === 'buyerAddress' || r[d].count > 0 ? r[d].inFlight : 0);
  const over = (d: RevertDimension): (RecentReverts & { d: RevertDimension }) | null =>
    r[d].count + inFlight(d) >= max[d] ? { d, ...r[d], inFlight: inFlight(d) } : null;
  const refusal = over('buyerAddress') ?? over('credential') ?? over('accountId');
  if (!refusal) return;
  const retryS = refusal.count >= max[refusal.d] ? Math.ceil(refusal.freesInS ?? 1) : IN_FLIGHT_RETRY_S;
  throw new AppError(
    'too_many_reverts',
    `${refusal.count} of ${WHO[refusal.d]} submissions reverted on chain in the last 24 hours and ${refusal.inFlight} are in flight ` +
      `(at most ${max[refusal.d]} together): confirms are refused until one is mined or the oldest revert is a day old.`,
    undefined,
    { 'Retry-After': String(Math.max(1, retryS)) },
  );
}

/** Who confirms: the credential's id and kind (a partner or wallet key, an App-Id, the hosted page's client, x402). */
export interface RevertCaller {
  keyId: string;
  keyType: string;
}

/** Whose budget of reverted submissions a confirm spends, at every door (gateway, pay page, x402 link and settle). */
export const revertScopeOf = (accountId: string, buyerAddress: string, caller: RevertCaller): RevertScope => ({
  accountId,
  buyerAddress,
  credential: caller.keyId,
});
