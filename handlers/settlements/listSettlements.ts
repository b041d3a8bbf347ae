import type { Handler } from '../../src/http/handlerTypes';
import { listSettlements as list } from '../../src/usecases/settlements';

export const listSettlements: Handler<'listSettlements'> = async ({ db, caller, path }) => ({
  status: 200,
  body: await list(db, caller.accountId, path.merchantId),
});
