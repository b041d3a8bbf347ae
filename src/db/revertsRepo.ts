import { Db, knexOf } from './knex';
import { PAYING_PURPOSES } from '../domain/chainTx';
import { inSet } from './stateSql';

// What the budget of reverted submissions counts (src/usecases/gateway/revertBudget.ts), per buyer address (on any chain),
// per credential that confirmed (key id or app id) and per account: collect and direct transactions that reverted at
// depth in the last 24 hours through the buyer's doing (their revert_cause: not the token's, not an outbid copy's, not
// congestion's), through a partial index (migration 20261204090100); and submissions still in flight, which may yet
// revert: processing payments whose submission is not mined with a successful receipt (migrations 20261205090100,
// 20261205090200). A buyer is known to an account once a payment of the account from its address succeeded; the
// buyer-address lookups want the index on that expression (payments_buyer_address_idx), which keeps each to the
// buyer's own payments.

export interface RecentReverts {
  count: number;
  /** Distinct buyer addresses among them. */
  buyers: number;
  /** Seconds until the oldest of them is 24 hours old (null: none). */
  freesInS: number | null;
  /** Submissions still in flight. */
  inFlight: number;
  /** Of those, the ones of buyers that no payment of their account has succeeded from yet. */
  newInFlight: number;
}

export interface RevertScope {
  accountId: string;
  buyerAddress: string;
  credential: string;
}

export type RevertDimension = keyof RevertScope;
const DIMENSIONS: RevertDimension[] = ['buyerAddress', 'credential', 'accountId'];

const BUYER = "lower(split_part(p.buyer_account, ':', 3))";

/** Each dimension's SQL over the payment `p`, with the scope's value as its one binding. */
const MATCHES: Record<RevertDimension, string> = {
  accountId: 'p.account_id = ?',
  buyerAddress: `${BUYER} = ?`,
  credential: "(p.caller_info ->> 'keyId') = ?",
};

/** A succeeded payment of account `account` from buyer address `buyer` (SQL expressions). */
const paidBy = (account: string, buyer: string) =>
  `EXISTS (SELECT 1 FROM payments k WHERE lower(split_part(k.buyer_account, ':', 3)) = ${buyer} AND k.account_id = ${account}
     AND k.status = 'succeeded')`;

/**
 * The scope's reverted and in-flight submissions per dimension, and whether the buyer is known to the account, in one
 * read. `lock`: first takes a transaction lock per dimension's value (in one order), so that confirms of the same
 * buyer, credential or account count and change one after another, each seeing the others' in-flight submissions;
 * pass the transaction that makes the payment processing.
 */
export async function recentReverts(
  db: Db,
  scope: RevertScope,
  lock = false,
): Promise<Record<RevertDimension, RecentReverts> & { knownBuyer: boolean }> {
  const knex = knexOf(db);
  const values = DIMENSIONS.map((d) => (d === 'buyerAddress' ? scope.buyerAddress.toLowerCase() : scope[d]));
  if (lock)
    await knex.raw(`SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest(?::text[]) k ORDER BY k`, [
      DIMENSIONS.map((d, i) => `revert-budget:${d}:${values[i]}`),
    ]);
  // Columns by position (d0, d1, …): SQL would fold the dimensions' names to lower case.
  const col = (i: number) => `d${i}`;
  const flags = DIMENSIONS.map((d, i) => `${MATCHES[d]} AS ${col(i)}`).join(', ');
  // In the order of their placeholders: the confirming buyer's lookup in the select list, then each branch's flags.
  const binds = [scope.buyerAddress.toLowerCase(), scope.accountId, ...values, ...values];
  const { rows } = await knex.raw(
    `SELECT ${DIMENSIONS.map(
      (_, i) => `count(*) FILTER (WHERE m.${col(i)} AND m.reverted)::int AS ${col(i)}_n,
       count(DISTINCT m.buyer) FILTER (WHERE m.${col(i)} AND m.reverted)::int AS ${col(i)}_buyers,
       extract(epoch FROM min(m.finished_at) FILTER (WHERE m.${col(i)}) + interval '1 day' - now())::float8 AS ${col(i)}_frees,
       count(*) FILTER (WHERE m.${col(i)} AND NOT m.reverted)::int AS ${col(i)}_flight,
       count(*) FILTER (WHERE m.${col(i)} AND NOT m.reverted AND m.fresh)::int AS ${col(i)}_fresh`,
    ).join(', ')},
       ${paidBy('?', '?')} AS known
     FROM (SELECT c.finished_at, true AS reverted, ${BUYER} AS buyer, false AS fresh, ${flags}
           FROM chain_transactions c JOIN payments p ON p.id = c.payment_id
           WHERE c.status = 'reverted' AND ${inSet('c.purpose', PAYING_PURPOSES)} AND c.finished_at > now() - interval '1 day'
             AND coalesce(c.revert_cause, 'payer') = 'payer'
           UNION ALL
           SELECT NULL, false, ${BUYER}, NOT ${paidBy('p.account_id', BUYER)}, ${flags} FROM payments p
           WHERE p.status = 'processing' AND NOT EXISTS (SELECT 1 FROM chain_transactions c WHERE c.payment_id = p.id
             AND ${inSet('c.purpose', PAYING_PURPOSES)} AND c.status = 'mined' AND c.receipt_reverted IS FALSE)) m
     WHERE ${DIMENSIONS.map((_, i) => `m.${col(i)}`).join(' OR ')}`,
    binds,
  );
  const r = rows[0];
  const of = (i: number): RecentReverts => {
    const frees = r[`${col(i)}_frees`];
    return {
      count: Number(r[`${col(i)}_n`]),
      buyers: Number(r[`${col(i)}_buyers`]),
      freesInS: frees === null ? null : Number(frees),
      inFlight: Number(r[`${col(i)}_flight`]),
      newInFlight: Number(r[`${col(i)}_fresh`]),
    };
  };
  return {
    ...(Object.fromEntries(DIMENSIONS.map((d, i) => [d, of(i)])) as Record<RevertDimension, RecentReverts>),
    knownBuyer: r.known === true,
  };
}

/** A payment's collect or direct transactions that reverted at depth (its submissions that were tried and moved nothing). */
const revertedOf = (db: Db, paymentId: string) =>
  knexOf(db)('chain_transactions').where({ payment_id: paymentId, status: 'reverted' }).whereIn('purpose', PAYING_PURPOSES);

/** How many of the payment's submissions reverted. */
export async function revertedSubmissions(db: Db, paymentId: string): Promise<number> {
  const [r] = await revertedOf(db, paymentId).count<{ n: string }[]>({ n: '*' });
  return Number(r.n);
}

/** The hash of the payment's last reverted submission (a failed payment keeps none of its own), or undefined. */
export async function revertedTransfer(db: Db, paymentId: string): Promise<string | undefined> {
  const r = await revertedOf(db, paymentId).orderBy('id', 'desc').first('tx_hash');
  return r?.tx_hash;
}
