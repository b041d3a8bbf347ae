import type { Handler } from '../../src/http/handlerTypes';
import { getMerchantWithSettlements } from '../../src/usecases/merchants/merchants';
import { merchantFull } from './present';
import { settlementsView } from '../settlements/present';

export const getMerchant: Handler<'getMerchant'> = async ({ db, caller, path, version }) => {
  const { merchant, settlements } = await getMerchantWithSettlements(db, caller.accountId, path.merchantId);
  return {
    status: 200,
    body: { merchant: { ...merchantFull(merchant, version), settlements: settlementsView(settlements, version, merchant.accountId) } },
  };
};
