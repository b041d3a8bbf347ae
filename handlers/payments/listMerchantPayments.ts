import type { Handler } from '../../src/http/handlerTypes';
import { listPaymentsPage } from '../../src/usecases/paymentLists';
import { listItem } from './present';

export const listMerchantPayments: Handler<'listMerchantPayments'> = async ({ db, caller, headers, query }) => {
  const page = await listPaymentsPage(db, caller.accountId, { ...query, tokenSymbol: query.token_symbol, merchantId: headers['merchant-id']! });
  return {
    status: 200,
    body: {
      data: page.rows.map((r) => listItem(r.payment, r.asset, { name: r.merchantName, iconUrl: r.merchantIconUrl })),
      nextCursor: page.nextCursor,
      stats: page.stats,
    },
  };
};
