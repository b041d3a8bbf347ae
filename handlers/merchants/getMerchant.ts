import type { Handler } from '../../src/http/handlerTypes';
import { getMerchantWithSettlements } from '../../src/usecases/merchants';
import { merchantFull } from './present';

export const getMerchant: Handler<'getMerchant'> = async ({ db, caller, path }) => {
  const { merchant, settlements } = await getMerchantWithSettlements(db, caller.accountId, path.merchantId);
  return { status: 200, body: { merchant: { ...merchantFull(merchant), settlements } } };
};
