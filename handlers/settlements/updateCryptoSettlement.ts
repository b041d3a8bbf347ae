import type { Handler } from '../../src/http/handlerTypes';
import { changeDestination } from '../../src/usecases/settlements';

export const updateCryptoSettlement: Handler<'updateCryptoSettlement'> = async ({ db, caller, path, body }) => ({
  status: 200,
  body: await changeDestination(db, caller.accountId, path.merchantId, path.id, body.destination),
});
