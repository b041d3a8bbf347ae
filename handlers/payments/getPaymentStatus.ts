import type { Handler } from '../../src/http/handlerTypes';
import { sharedBody } from '../../src/http/sharedBody';
import { paymentForMerchant, pollStatus } from '../../src/usecases/payments/payments';
import { statusView } from './present';

export const getPaymentStatus: Handler<'getPaymentStatus'> = async ({ db, hub, caller, headers, path, query, version }) => {
  const load = () => paymentForMerchant(db, caller.accountId, headers['merchant-id']!, path.id);
  const read = await pollStatus(db, hub, path.id, load, query.maxPollMs);
  // The waiters one change wakes share `read`: one body for all of them.
  return { status: 200, body: sharedBody(read, version, () => statusView(read.payment, read.asset, version)) };
};
