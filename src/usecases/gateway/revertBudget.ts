import type { Db } from '../../db/knex';
import type { Config } from '../../config';
import { AppError } from '../../domain/errors';
import { recentReverts, type RecentReverts, type RevertDimension, type RevertScope } from '../../db/revertsRepo';

// A submission that reverts costs the relayer its gas and whoever signed it nothing. Confirm simulates as the chain
// will run it (src/usecases/gateway/authorizationCheck.ts), but state can change between confirm and inclusion (a balance
// moved away, or spent by another confirm running at the same time; a contract wallet that changes its mind). So
// reverted collect and direct transactions of the last 24 hours are counted, those the buyer caused only
// (src/db/relayer/transactions.ts, RevertCause): not a revert the token caused (paused, or a party blacklisted, at that
// block), nor one outbid by a copy that paid the payment, nor congestion's (an authorization mined after its deadline
// although it left time when sent: the relayer's fees or the chain fell behind, which no payer controls).
//
// A budget refuses only the party that can stop causing reverts, because refusing anyone else hands a lock-out to
// whoever can make reverts cheaply:
// - The buyer address (REVERT_BUDGET_PER_BUYER): its balance, its authorizations and its wallet's code are what move.
// - The credential (REVERT_BUDGET_PER_CREDENTIAL) only when it is one party's: a partner key (its holder's own server
//   confirms) and the pay page's caller, one per client address (the page has no credential; an address is the one
//   thing an anonymous caller cannot mint by the thousand as it can buyer addresses). Clients behind one address share
//   that budget on the page only; their wallets' own doors are untouched. Wallet keys, App-Ids and x402 are shared by
//   every user of the wallet or agent of the resource server, none of whom can see the others' balances move: one of
//   them could lock out all the rest, so there the buyer address answers alone.
// - Never the account: anyone with its payment links could lock it out with a few throwaway addresses.
// What still bounds the operator's gas against throwaway buyer addresses on a shared credential or an account: once
// submissions of as many distinct buyers as its budget reverted (so no single buyer's reverts engage it), buyers new to
// the account (no payment of it succeeded from their address) share that many payments in flight at once, and beyond
// it wait (Retry-After). Buyers who have paid the account before pass as always; an attacker then spends the operator's
// gas at most that many reverts per submission's time to depth, each needing a balance moved on chain at its own cost
// (and a known address, a real payment to the account). The trade-off: under such an attack new buyers of a busy
// account queue for those places instead of paying at once; docs/limits.md.
// Submissions still in flight may yet revert, so they count too: always a buyer's (one balance confirmed for several
// payments at once: all simulations pass, all but one submission revert), a one-party credential's once it has a
// revert in the window. The check before the confirm's transaction refuses early; the one in it (`lock`) decides, one
// confirm of a buyer, credential or account at a time, so confirms at once never go past a budget that counts them
// (tests/integration/revertBudget.own.test.ts, revertBlame.own.test.ts, contractWallets.own.test.ts).

/** When a refusal is for submissions in flight: they are mined within a few blocks. */
const IN_FLIGHT_RETRY_S = 5;

const WHO: Record<RevertDimension, string> = {
  buyerAddress: "this buyer address's",
  credential: "this credential's",
  accountId: "this account's",
};

/** Whose reverts a confirm answers for, and whether its credential is shared by many users (see above). */
export type BudgetScope = RevertScope & { sharedCredential: boolean };

interface Refusal {
  message: string;
  retryS: number;
}

/** A party's budget: its reverts, and its submissions in flight, refuse it at `max` together. */
function partyOver(d: RevertDimension, r: RecentReverts, max: number): Refusal | null {
  const inFlight = d === 'buyerAddress' || r.count > 0 ? r.inFlight : 0;
  if (r.count + inFlight < max) return null;
  return {
    message:
      `${r.count} of ${WHO[d]} submissions reverted on chain in the last 24 hours and ${inFlight} are in flight ` +
      `(at most ${max} together): confirms are refused until one is mined or the oldest revert is a day old.`,
    retryS: r.count >= max ? Math.ceil(r.freesInS ?? 1) : IN_FLIGHT_RETRY_S,
  };
}

/** A budget that never refuses everyone: at `max` reverting buyers, buyers new to the account share `max` places in flight. */
function throttled(d: RevertDimension, r: RecentReverts, max: number, knownBuyer: boolean): Refusal | null {
  if (r.buyers < max || knownBuyer || r.newInFlight < max) return null;
  return {
    message:
      `Submissions of ${r.buyers} buyer addresses reverted on chain through ${WHO[d]} payments in the last 24 hours, so buyers ` +
      `new to the account may have at most ${max} payments in flight at once (${r.newInFlight} are): try again once one is mined.`,
    retryS: IN_FLIGHT_RETRY_S,
  };
}

export async function checkRevertBudget(db: Db, budget: Config['revertBudget'], scope: BudgetScope, lock = false): Promise<void> {
  const r = await recentReverts(db, scope, lock);
  const refusal =
    partyOver('buyerAddress', r.buyerAddress, budget.perBuyer) ??
    (scope.sharedCredential
      ? throttled('credential', r.credential, budget.perCredential, r.knownBuyer)
      : partyOver('credential', r.credential, budget.perCredential)) ??
    throttled('accountId', r.accountId, budget.perAccount, r.knownBuyer);
  if (!refusal) return;
  throw new AppError('too_many_reverts', refusal.message, undefined, { 'Retry-After': String(Math.max(1, refusal.retryS)) });
}

/** Who confirms: the credential's id and kind (a partner or wallet key, an App-Id, the hosted page's client, x402). */
export interface RevertCaller {
  keyId: string;
  keyType: string;
}

/** Credentials one party holds and answers for: a partner key, the pay page's per-client-address caller. */
const ONE_PARTY = new Set(['partner', 'page']);

/** Whose budget of reverted submissions a confirm spends, at every door (gateway, pay page, x402 link and settle). */
export const revertScopeOf = (accountId: string, buyerAddress: string, caller: RevertCaller): BudgetScope => ({
  accountId,
  buyerAddress,
  credential: caller.keyId,
  sharedCredential: !ONE_PARTY.has(caller.keyType),
});
