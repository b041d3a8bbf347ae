import type { Handler } from '../../src/http/handlerTypes';
import { refund } from '../../src/usecases/payments';

export const createRefund: Handler<'createRefund'> = async ({ db, caller, headers, body }) => {
  const p = await refund(db, caller.accountId, headers['merchant-id']!, body.paymentId);
  return { status: 200, body: { paymentId: p.id, refundedAt: p.refundedAt!.toISOString() } };
};
