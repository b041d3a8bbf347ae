import type { Handler } from '../../src/http/handlerTypes';
import { listPaymentsPage } from '../../src/usecases/payments/lists';
import { listBody } from './present';

export const listMerchantPayments: Handler<'listMerchantPayments'> = async ({ db, caller, headers, query, version }) => ({
  status: 200,
  body: listBody(
    await listPaymentsPage(db, caller.accountId, { ...query, tokenSymbol: query.token_symbol, merchantId: headers['merchant-id']! }),
    version,
  ),
});
