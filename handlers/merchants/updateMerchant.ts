import type { Handler } from '../../src/http/handlerTypes';
import { updateMerchant as update } from '../../src/usecases/merchants/merchants';
import { merchantFull } from './present';

export const updateMerchant: Handler<'updateMerchant'> = async ({ db, caller, path, body, version }) => {
  const m = await update(db, caller.accountId, path.merchantId, {
    name: body.merchantName,
    email: body.merchantEmail,
    iconUrl: body.iconUrl,
  });
  return { status: 200, body: { merchant: merchantFull(m, version) } };
};
