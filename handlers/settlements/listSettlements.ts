import type { Handler } from '../../src/http/handlerTypes';
import { listSettlements as list } from '../../src/usecases/merchants/settlements';
import { settlementsView } from './present';

export const listSettlements: Handler<'listSettlements'> = async ({ db, caller, path, version }) => ({
  status: 200,
  body: settlementsView(await list(db, caller.accountId, path.merchantId), version, caller.accountId),
});
