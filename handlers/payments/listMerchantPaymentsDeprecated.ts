import type { Handler } from '../../src/http/handlerTypes';
import { listPaymentsPage } from '../../src/usecases/payments/lists';
import { legacyListItem, statsView } from './present';

const SORT = { created_at: 'createdAt', date: 'createdAt', last_updated_at: 'lastUpdatedAt', amount: 'amount' } as const;

// Deprecated path: same listing, older snake_case shape; revenue is reported for one currency (the first).
export const listMerchantPaymentsDeprecated: Handler<'listMerchantPaymentsDeprecated'> = async ({ db, caller, path, query, version }) => {
  const page = await listPaymentsPage(db, caller.accountId, {
    merchantId: path.merchant_id,
    merchantInPath: true,
    status: query.status,
    startTs: query.start_ts,
    endTs: query.end_ts,
    asset: query.asset,
    network: query.network,
    sortBy: query.sort_by ? SORT[query.sort_by] : undefined,
    sortDir: query.sort_dir,
    cursor: query.cursor,
    limit: query.limit,
  });
  const stats = statsView(page.stats);
  const revenue = stats.totalRevenue[0] ?? { amount: 0, currency: 'USD' };
  return {
    status: 200,
    body: {
      data: page.rows.map((r) => legacyListItem(r.payment, r.asset, version)),
      next_cursor: page.nextCursor,
      stats: { total_customers: stats.totalCustomers, total_revenue: revenue, total_transactions: stats.totalTransactions },
    },
  };
};
