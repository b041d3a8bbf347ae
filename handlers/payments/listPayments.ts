import type { Handler } from '../../src/http/handlerTypes';
import { listPaymentsPage } from '../../src/usecases/payments/lists';
import { listBody } from './present';

export const listPayments: Handler<'listPayments'> = async ({ db, caller, query, version }) => ({
  status: 200,
  body: listBody(await listPaymentsPage(db, caller.accountId, { ...query, tokenSymbol: query.token_symbol }), version),
});
