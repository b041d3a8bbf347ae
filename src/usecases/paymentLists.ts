import type { Db } from '../db/knex';
import { decodeCursor, encodeCursor, isCursorTime } from '../domain/cursor';
import { AppError } from '../domain/errors';
import type { PaymentStatus } from '../domain/payment';
import * as repo from '../db/payments';
import { ownedMerchant } from './merchants';

// Payment lists (partner-wide, per merchant, and the deprecated per-merchant path): keyset pagination on
// (sort key, id), so pages stay stable while payments are created; stats cover everything the filters match.

/** The repository's filters (referenceId, time range, network, token, asset) as the API names them. */
export interface PaymentListQuery extends Omit<repo.ListFilter, 'accountId' | 'merchantId' | 'statuses'> {
  merchantId?: string;
  /**
   * The merchant is the resource the path names (the deprecated /v1/merchants/{merchant_id}/payments): once it is
   * deleted that resource is gone, 404 like the merchant itself. As a filter (a query parameter or Merchant-Id), a
   * deleted merchant's payments stay listed: they are the account's history.
   */
  merchantInPath?: boolean;
  status?: PaymentStatus[];
  sortBy?: repo.SortKey;
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

export async function listPaymentsPage(db: Db, accountId: string, q: PaymentListQuery) {
  if (q.merchantId) await ownedMerchant(db, accountId, q.merchantId, !q.merchantInPath);
  const sort = q.sortBy ?? 'createdAt';
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
    merchantId: q.merchantId,
    statuses: q.status,
    referenceId: q.referenceId,
    startTs: q.startTs,
    endTs: q.endTs,
    network: q.network,
    tokenSymbol: q.tokenSymbol,
    asset: q.asset?.replace(/^caip19\//, ''),
  };
  const limit = q.limit ?? 50;
  const [page, stats] = await Promise.all([repo.listPayments(db, filter, sort, dir, limit, after), repo.listStats(db, filter)]);
  const last = page.rows[page.rows.length - 1];
  const nextCursor =
    page.hasMore && last ? encodeCursor({ s: sort, d: dir, v: repo.sortValue(last.payment, sort), i: last.payment.id }) : null;
  return { rows: page.rows, nextCursor, stats };
}
