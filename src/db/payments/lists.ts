import { Payment, PaymentStatus } from '../../domain/payment';
import { ASSET_COLUMNS } from '../assetsRepo';
import { Db, knexOf } from '../knex';
import { PaymentWithAsset, Row, effectiveStatusSql, split } from './rows';

/** Payments per status, for the metrics: one grouped query. */
export async function countPaymentsByStatus(db: Db): Promise<Record<string, number>> {
  const { rows } = await knexOf(db).raw<{ rows: { status: string; n: string }[] }>(`
    SELECT ${effectiveStatusSql('p')} AS status, count(*) AS n FROM payments p GROUP BY 1`);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
export interface ListFilter {
  accountId: string;
  merchantId?: string;
  statuses?: PaymentStatus[];
  referenceId?: string;
  startTs?: number;
  endTs?: number;
  network?: string;
  tokenSymbol?: string;
  asset?: string;
}

export type SortKey = 'createdAt' | 'lastUpdatedAt' | 'amount';
const SORT_COLUMN: Record<SortKey, string> = { createdAt: 'p.created_at', lastUpdatedAt: 'p.updated_at', amount: 'p.amount_minor' };

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

function filtered(db: Db, f: ListFilter) {
  const knex = knexOf(db);
  const q = knex('payments as p').where('p.account_id', f.accountId);
  if (f.merchantId) q.andWhere('p.merchant_id', f.merchantId);
  if (f.statuses?.length) q.whereIn('p.status', f.statuses);
  if (f.referenceId) q.andWhereLike('p.reference_id', `%${escapeLike(f.referenceId)}%`);
  if (f.startTs !== undefined) q.andWhere('p.created_at', '>=', new Date(f.startTs * 1000));
  if (f.endTs !== undefined) q.andWhere('p.created_at', '<', new Date(f.endTs * 1000));
  if (f.network) q.andWhere('p.chain_id', f.network);
  if (f.asset) q.andWhere('p.token_asset', f.asset);
  if (f.tokenSymbol) q.whereIn('p.token_asset', knex('assets').whereRaw('upper(symbol) = upper(?)', [f.tokenSymbol]).select('id'));
  return q;
}

export interface ListPage {
  rows: (PaymentWithAsset & { merchantName: string; merchantIconUrl: string | null })[];
  hasMore: boolean;
}

export async function listPayments(
  db: Db,
  f: ListFilter,
  sort: SortKey,
  dir: 'asc' | 'desc',
  limit: number,
  after?: { v: string; i: string },
): Promise<ListPage> {
  const knex = knexOf(db);
  const col = SORT_COLUMN[sort];
  const q = filtered(db, f)
    .leftJoin('assets as a', 'a.id', 'p.token_asset')
    .join('merchants as m', 'm.id', 'p.merchant_id')
    .select(
      'p.*',
      knex.raw('now() AS db_now'),
      'm.name as merchant_name',
      'm.icon_url as merchant_icon_url',
      ...ASSET_COLUMNS.map((c) => `a.${c} as asset_${c}`),
    )
    .orderBy([
      { column: col, order: dir },
      { column: 'p.id', order: dir },
    ])
    .limit(limit + 1);
  if (after) {
    const cast = sort === 'amount' ? 'numeric' : 'timestamptz';
    q.andWhereRaw(`(${col}, p.id) ${dir === 'desc' ? '<' : '>'} (?::${cast}, ?)`, [after.v, after.i]);
  }
  const rows = await q;
  return {
    rows: rows.slice(0, limit).map((r: Row) => ({ ...split(r), merchantName: r.merchant_name, merchantIconUrl: r.merchant_icon_url })),
    hasMore: rows.length > limit,
  };
}

export const sortValue = (p: Payment, sort: SortKey): string =>
  sort === 'amount' ? p.amountMinor.toString() : (sort === 'createdAt' ? p.createdAt : p.updatedAt).toISOString();

/** Stats over everything the filter matches (not just the page): succeeded payments only. */
export async function listStats(db: Db, f: ListFilter) {
  const knex = knexOf(db);
  const base = filtered(db, f).andWhere('p.status', 'succeeded');
  const [revenue, [totals]] = await Promise.all([
    base.clone().groupBy('p.currency').orderBy('p.currency').select('p.currency', knex.raw('sum(p.amount_minor)::text as amount')),
    base.clone().select(knex.raw('count(*)::int as transactions'), knex.raw('count(distinct p.buyer_account)::int as customers')),
  ]);
  return {
    totalRevenue: revenue.map((r: Row) => ({ amount: r.amount as string, currency: r.currency as string })),
    totalTransactions: Number(totals.transactions),
    totalCustomers: Number(totals.customers),
  };
}
