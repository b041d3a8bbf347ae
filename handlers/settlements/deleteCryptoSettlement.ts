import type { Handler } from '../../src/http/handlerTypes';
import { removeSettlement } from '../../src/usecases/merchants/settlements';

export const deleteCryptoSettlement: Handler<'deleteCryptoSettlement'> = async ({ db, caller, path }) => ({
  status: 200,
  body: await removeSettlement(db, caller.accountId, path.merchantId, path.id),
});
