import { readsOf, type Db } from '../../db/knex';
import { decodeCursor, encodeCursor, isCursorTime } from '../../domain/cursor';
import { AppError } from '../../domain/errors';
import type { PaymentStatus } from '../../domain/payment';
import * as repo from '../../db/payments';
import { ownedMerchant } from '../merchants/merchants';

export type { ListStats } from '../../db/payments';

// Payment lists (partner-wide, per merchant, and the deprecated per-merchant path): keyset pagination on
// (sort key, id), so pages stay stable while payments are created; stats cover everything the filters match.

/**
 * The filters as the API names them, in both forms each takes: ours and the hosted service's (time as Unix seconds or
 * an ISO 8601 date-time; several networks or token symbols repeated or comma-separated; several merchants repeated).
 */
export interface PaymentListQuery {
  merchantId?: string | string[];
  referenceId?: string;
  startTs?: number | string;
  endTs?: number | string;
  network?: string | string[];
  tokenSymbol?: string | string[];
  asset?: string;
  /**
   * The merchant is the resource the path names (the deprecated /v1/merchants/{merchant_id}/payments): once it is
   * deleted that resource is gone, 404 like the merchant itself. As a filter (a query parameter or Merchant-Id), a
   * deleted merchant's payments stay listed: they are the account's history.
   */
  merchantInPath?: boolean;
  status?: PaymentStatus[];
  /** `date` is the hosted service's name of `createdAt`. */
  sortBy?: repo.SortKey | 'date';
  sortDir?: 'asc' | 'desc';
  cursor?: string;
  limit?: number;
}

interface Cursor extends Record<string, unknown> {
  s: repo.SortKey;
  d: 'asc' | 'desc';
  v: string;
  i: string;
}

const isCursor = (x: unknown): x is Cursor => {
  const c = x as Cursor;
  return (
    typeof c === 'object' &&
    c !== null &&
    ['createdAt', 'lastUpdatedAt', 'amount'].includes(c.s) &&
    ['asc', 'desc'].includes(c.d) &&
    typeof c.i === 'string' &&
    typeof c.v === 'string' &&
    (c.s === 'amount' ? /^[0-9]{1,78}$/.test(c.v) : isCursorTime(c.v))
  );
};

/** Each value of a list parameter, repeated or comma-separated, once; an empty value filters nothing (as it always did). */
function listOf(v: string | string[] | undefined, comma: boolean): string[] | undefined {
  if (v === undefined) return undefined;
  const all = (Array.isArray(v) ? v : [v]).flatMap((x) => (comma ? x.split(',') : [x]));
  return [...new Set(all.filter(Boolean))];
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * A time filter: Unix seconds (a number, or its digits: the validator may hand either), or an ISO 8601 date-time with
 * a time zone, its fraction kept to the millisecond (the spec's pattern has checked the calendar).
 */
function queryTime(v: number | string, field: string): Date {
  if (typeof v === 'number' || /^\d+$/.test(v)) return new Date(Number(v) * 1000);
  const m = ISO.exec(v);
  if (!m) throw new AppError('params_validation', undefined, [{ field, message: 'must be Unix seconds or an ISO 8601 date-time' }]);
  const [, y, mo, d, h, mi, sec, frac, sign, oh, om] = m;
  const at = new Date(
    Date.UTC(2000, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec ?? 0), Number((frac ?? '').padEnd(3, '0').slice(0, 3))),
  );
  at.setUTCFullYear(Number(y)); // Date.UTC reads years 0 to 99 as 1900 to 1999
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
  return new Date(at.getTime() - offset * 60_000);
}

export async function listPaymentsPage(db: Db, accountId: string, q: PaymentListQuery) {
  const merchantIds = listOf(q.merchantId, false);
  for (const id of merchantIds ?? []) await ownedMerchant(db, accountId, id, !q.merchantInPath);
  const sort = q.sortBy === 'date' ? 'createdAt' : (q.sortBy ?? 'createdAt');
  const dir = q.sortDir ?? 'desc';
  let after: Cursor | undefined;
  if (q.cursor !== undefined) {
    const c = decodeCursor(q.cursor, isCursor);
    if (!c || c.s !== sort || c.d !== dir) {
      throw new AppError('params_validation', undefined, [
        { field: 'cursor', message: 'is not a cursor of this listing (same sort and direction)' },
      ]);
    }
    after = c;
  }
  const filter: repo.ListFilter = {
    accountId,
    merchantIds,
    statuses: q.status,
    referenceId: q.referenceId,
    startAt: q.startTs === undefined ? undefined : queryTime(q.startTs, 'startTs'),
    endAt: q.endTs === undefined ? undefined : queryTime(q.endTs, 'endTs'),
    networks: listOf(q.network, true),
    tokenSymbols: listOf(q.tokenSymbol, true),
    asset: q.asset?.replace(/^caip19\//, ''),
  };
  const limit = q.limit ?? 50;
  const [page, stats] = await readsOf(db, [
    () => repo.listPayments(db, filter, sort, dir, limit, after),
    () => repo.listStats(db, filter),
  ] as const);
  const last = page.rows[page.rows.length - 1];
  const nextCursor =
    page.hasMore && last ? encodeCursor({ s: sort, d: dir, v: repo.sortValue(last.payment, sort), i: last.payment.id }) : null;
  return { rows: page.rows, nextCursor, stats };
}
