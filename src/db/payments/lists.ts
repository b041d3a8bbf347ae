import { Payment, PaymentStatus } from '../../domain/payment';
import { ASSET_COLUMNS } from '../assetsRepo';
import { Db, knexOf, readsOf } from '../knex';
import { PaymentWithAsset, Row, effectiveStatusSql, split } from './rows';
import { refundedSql } from '../stateSql';

/** Payments per status, for the metrics: one grouped query. */
export async function countPaymentsByStatus(db: Db): Promise<Record<string, number>> {
  const { rows } = await knexOf(db).raw<{ rows: { status: string; n: string }[] }>(`
    SELECT ${effectiveStatusSql('p')} AS status, count(*) AS n FROM payments p GROUP BY 1`);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
export interface ListFilter {
  accountId: string;
  /** Any of these merchants (none: every merchant of the account). */
  merchantIds?: string[];
  statuses?: PaymentStatus[];
  referenceId?: string;
  /** Created at or after. */
  startAt?: Date;
  /** Created before. */
  endAt?: Date;
  /** On any of these CAIP-2 chains. */
  networks?: string[];
  /** Paid with a token of any of these symbols (case-insensitive). */
  tokenSymbols?: string[];
  asset?: string;
}

export type SortKey = 'createdAt' | 'lastUpdatedAt' | 'amount';
const SORT_COLUMN: Record<SortKey, string> = { createdAt: 'p.created_at', lastUpdatedAt: 'p.updated_at', amount: 'p.amount_minor' };

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

function filtered(db: Db, f: ListFilter) {
  const knex = knexOf(db);
  const q = knex('payments as p').where('p.account_id', f.accountId);
  if (f.merchantIds?.length) q.whereIn('p.merchant_id', f.merchantIds);
  if (f.statuses?.length) q.whereIn('p.status', f.statuses);
  if (f.referenceId) q.andWhereLike('p.reference_id', `%${escapeLike(f.referenceId)}%`);
  if (f.startAt) q.andWhere('p.created_at', '>=', f.startAt);
  if (f.endAt) q.andWhere('p.created_at', '<', f.endAt);
  if (f.networks?.length) q.whereIn('p.chain_id', f.networks);
  if (f.asset) q.andWhere('p.token_asset', f.asset);
  if (f.tokenSymbols?.length)
    q.whereIn(
      'p.token_asset',
      knex('assets')
        .whereRaw('upper(symbol) = ANY(?)', [f.tokenSymbols.map((t) => t.toUpperCase())])
        .select('id'),
    );
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

export interface ListStats {
  /** Per currency, in its minor units. */
  totalRevenue: { minor: bigint; currency: string }[];
  totalTransactions: number;
  totalCustomers: number;
}

/**
 * Stats over everything the filter matches (not just the page). `totalTransactions` counts every payment matched,
 * whatever its status (the items of all the pages together). Revenue and customers are of the succeeded payments that
 * are sales: a refund's funding payment (the partner paying in what a refund lacks) is listed, but is no sale, so it
 * is neither revenue nor a customer. Revenue is net of each payment's refunds not failed (what is refunded or on its
 * way back, as the payment's refundedAmount): a fully refunded payment is a transaction that brought nothing.
 */
export async function listStats(db: Db, f: ListFilter): Promise<ListStats> {
  const knex = knexOf(db);
  const sales = filtered(db, f)
    .andWhere('p.status', 'succeeded')
    .whereNotExists(knex('refund_fundings as rf').whereRaw('rf.payment_id = p.id').select(knex.raw('1')));
  const refunded = refundedSql('p.id', 'amount_minor');
  const [revenue, [sold], [matched]] = await readsOf(db, [
    () =>
      sales
        .clone()
        .groupBy('p.currency')
        .orderBy('p.currency')
        .select('p.currency', knex.raw(`sum(p.amount_minor - ${refunded})::text as amount`)),
    () => sales.clone().select(knex.raw('count(distinct p.buyer_account)::int as customers')),
    () => filtered(db, f).select(knex.raw('count(*)::int as transactions')),
  ] as const);
  return {
    totalRevenue: (revenue as Row[]).map((r) => ({ minor: BigInt(r.amount as string), currency: r.currency as string })),
    totalTransactions: Number((matched as Row).transactions),
    totalCustomers: Number((sold as Row).customers),
  };
}
