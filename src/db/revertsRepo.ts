import { Db, knexOf } from './knex';

// Reverted submissions (collect and direct transactions that reverted at depth) of the last 24 hours, read at every
// confirm through a partial index (migration 20261204090100).

export interface RecentReverts {
  count: number;
  /** Seconds until the oldest of them is 24 hours old (null: none). */
  freesInS: number | null;
}

/** The account's payments' reverted submissions, and the buyer address's (on any chain), in one read. */
export async function recentReverts(
  db: Db,
  accountId: string,
  buyerAddress: string,
): Promise<{ account: RecentReverts; buyer: RecentReverts }> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `SELECT count(*) FILTER (WHERE m.by_account)::int AS account_n,
       extract(epoch FROM min(m.finished_at) FILTER (WHERE m.by_account) + interval '1 day' - now())::float8 AS account_frees,
       count(*) FILTER (WHERE m.by_buyer)::int AS buyer_n,
       extract(epoch FROM min(m.finished_at) FILTER (WHERE m.by_buyer) + interval '1 day' - now())::float8 AS buyer_frees
     FROM (SELECT c.finished_at, p.account_id = ? AS by_account, lower(split_part(p.buyer_account, ':', 3)) = ? AS by_buyer
           FROM chain_transactions c JOIN payments p ON p.id = c.payment_id
           WHERE c.status = 'reverted' AND c.purpose IN ('collect', 'direct') AND c.finished_at > now() - interval '1 day') m
     WHERE m.by_account OR m.by_buyer`,
    [accountId, buyerAddress.toLowerCase()],
  );
  const r = rows[0];
  const of = (n: unknown, frees: unknown): RecentReverts => ({ count: Number(n), freesInS: frees === null ? null : Number(frees) });
  return { account: of(r.account_n, r.account_frees), buyer: of(r.buyer_n, r.buyer_frees) };
}
