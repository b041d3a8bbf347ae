import type { Handler } from '../../src/http/handlerTypes';
import { STABLE_VERSION } from '../../src/domain/versions';
import { createRefund as create } from '../../src/usecases/refunds';
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
  const stable = { paymentId: body.paymentId, ...(refundedAt ? { refundedAt: refundedAt.toISOString() } : {}) };
  // The stable version keeps its wire shape: no refund object.
  if (version === STABLE_VERSION) return { status: 200, body: stable as typeof stable & { refund: never } };
  return { status: 200, body: { ...stable, refund: refundBody(refund, config.publicBaseUrl) } };
};
