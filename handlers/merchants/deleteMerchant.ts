import type { Handler } from '../../src/http/handlerTypes';
import { deleteMerchant as remove } from '../../src/usecases/merchants/merchants';

export const deleteMerchant: Handler<'deleteMerchant'> = async ({ db, caller, path }) => {
  await remove(db, caller.accountId, path.merchantId);
  return { status: 200, body: { id: path.merchantId, deleted: true } };
};
