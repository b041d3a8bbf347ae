import type { Handler } from '../../src/http/handlerTypes';
import { balances } from '../../src/usecases/ledger/records';

export const getBalance: Handler<'getBalance'> = async ({ db, caller }) => ({
  status: 200,
  body: { ...(await balances(db, caller.accountId)), livemode: caller.mode === 'live' },
});
