import type { Handler } from '../../src/http/handlerTypes';
import { cancelByMerchant } from '../../src/usecases/payments/payments';
import { cancelledView } from './present';

export const cancelPayment: Handler<'cancelPayment'> = async ({ db, caller, headers, path, version }) => {
  const p = await cancelByMerchant(db, caller.accountId, headers['merchant-id']!, path.id);
  return { status: 200, body: cancelledView(p, 'cancelled_by_merchant', version) };
};
