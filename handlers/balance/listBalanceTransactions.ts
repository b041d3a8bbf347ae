import type { Handler } from '../../src/http/handlerTypes';
import { balanceTransactions } from '../../src/usecases/ledger';
import { exportRow } from '../../src/usecases/ledgerExport';

export const listBalanceTransactions: Handler<'listBalanceTransactions'> = async ({ db, caller, query }) => {
  const page = await balanceTransactions(db, caller.accountId, { from: query.from, to: query.to }, query.limit ?? 100, query.cursor);
  const livemode = caller.mode === 'live';
  return { status: 200, body: { data: page.data.map((r) => ({ ...exportRow(r), livemode })), nextCursor: page.nextCursor } };
};
