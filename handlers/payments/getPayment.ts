import type { Handler } from '../../src/http/handlerTypes';
import { paymentForMerchant } from '../../src/usecases/payments';
import { detailsView } from './present';

export const getPayment: Handler<'getPayment'> = async ({ db, caller, headers, path }) => {
  const { payment, asset } = await paymentForMerchant(db, caller.accountId, headers['merchant-id']!, path.id);
  return { status: 200, body: detailsView(payment, asset) };
};
