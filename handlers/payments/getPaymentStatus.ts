import type { Handler } from '../../src/http/handlerTypes';
import { paymentForMerchant, pollStatus } from '../../src/usecases/payments';
import { statusView } from './present';

export const getPaymentStatus: Handler<'getPaymentStatus'> = async ({ db, hub, caller, headers, path, query }) => {
  const load = () => paymentForMerchant(db, caller.accountId, headers['merchant-id']!, path.id);
  const { payment, asset } = await pollStatus(db, hub, path.id, load, query.maxPollMs);
  return { status: 200, body: statusView(payment, asset) };
};
