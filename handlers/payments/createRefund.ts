import type { Handler } from '../../src/http/handlerTypes';
import { createRefund as create } from '../../src/usecases/payments/refunds';
import { refundBody } from './refundPresent';

export const createRefund: Handler<'createRefund'> = async ({
  db,
  config,
  caller,
  headers,
  body,
  version,
  chainWork,
  webhookWork,
  afterCommit,
}) => {
  const { refund, refundedAt } = await create(db, caller.accountId, headers['merchant-id']!, body, { settings: config.refunds, chainWork });
  afterCommit(async () => {
    await chainWork.startRefund(body.paymentId);
    webhookWork.eventsWritten();
  });
  // Both versions say what became of the money: the refund as it stands (its status; while it waits for funds, the
  // payment that funds it). The stable version adds it to the hosted contract's answer, without `livemode`.
  return {
    status: 200,
    body: {
      paymentId: body.paymentId,
      ...(refundedAt ? { refundedAt: refundedAt.toISOString() } : {}),
      refund: refundBody(refund, config.publicBaseUrl, version),
    },
  };
};
