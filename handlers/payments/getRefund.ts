import type { Handler } from '../../src/http/handlerTypes';
import { refundForMerchant } from '../../src/usecases/payments/refunds';
import { refundBody } from './refundPresent';

export const getRefund: Handler<'getRefund'> = async ({ db, config, caller, headers, path, version }) => {
  const { refund } = await refundForMerchant(db, caller.accountId, headers['merchant-id']!, path.refundId);
  return { status: 200, body: { refund: refundBody(refund, config.publicBaseUrl, version) } };
};
