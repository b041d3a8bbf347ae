import type { Db } from '../db/knex';
import type { Config } from '../config';
import { AppError } from '../domain/errors';
import { recentReverts, type RecentReverts } from '../db/revertsRepo';

// A submission that reverts costs the relayer its gas and whoever signed it nothing. Confirm simulates as the chain
// will run it (src/usecases/authorizationCheck.ts), but state can change between confirm and inclusion (a balance
// moved away, a contract wallet that changes its mind). So reverted collect and direct transactions of the last
// 24 hours are counted per account (its payments) and per buyer address (on any chain); at the budget
// (REVERT_BUDGET_PER_ACCOUNT, REVERT_BUDGET_PER_BUYER) confirms are refused, 429 too_many_reverts, until the oldest
// counted revert is a day old.

export async function checkRevertBudget(db: Db, budget: Config['revertBudget'], accountId: string, buyerAccount: string): Promise<void> {
  const r = await recentReverts(db, accountId, buyerAccount.split(':')[2] ?? '');
  const over = (who: string, n: RecentReverts, max: number) => (n.count >= max ? { who, ...n } : null);
  const refusal = over("this buyer address's", r.buyer, budget.perBuyer) ?? over("this account's payments'", r.account, budget.perAccount);
  if (!refusal) return;
  throw new AppError(
    'too_many_reverts',
    `${refusal.count} of ${refusal.who} submissions reverted on chain in the last 24 hours: confirms are refused until the oldest is a day old.`,
    undefined,
    { 'Retry-After': String(Math.max(1, Math.ceil(refusal.freesInS ?? 1))) },
  );
}
