import type { Handler } from '../../src/http/handlerTypes';
import { listRefunds as list } from '../../src/usecases/payments/refunds';
import { refundBody } from './refundPresent';

export const listRefunds: Handler<'listRefunds'> = async ({ db, config, caller, headers, query, version }) => {
  const page = await list(db, caller.accountId, headers['merchant-id']!, query.paymentId, query.limit ?? 50, query.cursor);
  return { status: 200, body: { data: page.data.map((r) => refundBody(r, config.publicBaseUrl, version)), nextCursor: page.nextCursor } };
};
