import type { Handler } from '../../src/http/handlerTypes';
import { createMerchant as create } from '../../src/usecases/merchants/merchants';
import { merchantCore } from './present';

export const createMerchant: Handler<'createMerchant'> = async ({ db, caller, body, version }) => {
  const m = await create(db, caller.accountId, { name: body.merchantName, email: body.merchantEmail, iconUrl: body.iconUrl });
  return { status: 201, body: { merchant: merchantCore(m, version) } };
};
