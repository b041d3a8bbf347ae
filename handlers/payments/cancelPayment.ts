import type { Handler } from '../../src/http/handlerTypes';
import { cancelByMerchant } from '../../src/usecases/payments';

export const cancelPayment: Handler<'cancelPayment'> = async ({ db, caller, headers, path }) => {
  const p = await cancelByMerchant(db, caller.accountId, headers['merchant-id']!, path.id);
  return {
    status: 200,
    body: { paymentId: p.id, status: 'cancelled', cancelledReason: 'cancelled_by_merchant', cancelledAt: p.cancelledAt!.toISOString() },
  };
};
