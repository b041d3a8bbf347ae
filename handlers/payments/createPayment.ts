import type { Handler } from '../../src/http/handlerTypes';
import { createPayment as create } from '../../src/usecases/payments';
import { createdView } from './present';

export const createPayment: Handler<'createPayment'> = async ({ db, config, caller, headers, body }) => {
  const p = await create(db, config, caller.accountId, headers['merchant-id']!, body);
  return { status: 201, body: createdView(p, config.publicBaseUrl) };
};
