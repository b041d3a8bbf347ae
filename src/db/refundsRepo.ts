import { isFinal, PAYMENT_STATUSES, type PaymentStatus } from '../domain/payment';
import type { RefundRow, RefundStatus, Refunded } from '../domain/refund';
import { Db, knexOf } from './knex';
import { PAID_TO_COLLECTOR } from './relayer';
import { TX_OPEN } from '../domain/chainTx';
import { REFUND_COUNTED, REFUND_OPEN } from '../domain/refund';
import { inSet } from './stateSql';

/** SQL: the refund is counted as refunded (not failed). */
const COUNTED = inSet('status', REFUND_COUNTED);

// Refunds (migration 20261207090100): their rows, what creating one needs under the payment's lock, and what the
// relayer's refund step reads and records.

type Row = Record<string, any>;

const fromRow = (r: Row): RefundRow => ({
  id: r.id,
  paymentId: r.payment_id,
  accountId: r.account_id,
  amountMinor: BigInt(r.amount_minor),
  currency: r.currency,
  tokenAsset: r.token_asset,
  tokenAmount: BigInt(r.token_amount),
  recipient: r.recipient,
  status: r.status,
  failureCode: r.failure_code,
  chainTxId: r.chain_tx_id === null ? null : String(r.chain_tx_id),
  txHash: r.tx_hash,
  fundingPaymentId: r.funding_payment_id ?? null,
  createdAt: r.created_at,
});

const UNPAID: PaymentStatus[] = PAYMENT_STATUSES.filter((s) => isFinal(s) && s !== 'succeeded');

/** SQL: the latest funding payment of the refund aliased `r` (a refund still short after one is paid gets another). */
const LATEST_FUNDING = (r: string) =>
  `(SELECT f.payment_id FROM refund_fundings f WHERE f.refund_id = ${r}.id ORDER BY f.created_at DESC, f.payment_id DESC LIMIT 1)`;

/** A refund's columns and the payment that funds it, if any (the latest). */
const withFunding = (db: Db) =>
  knexOf(db)('refunds').select('refunds.*', knexOf(db).raw(`${LATEST_FUNDING('refunds')} AS funding_payment_id`));

/** The payment as a refund needs it, locked (FOR UPDATE) until the transaction ends: refunds of it are made one at a time. */
export interface RefundablePayment {
  accountId: string;
  merchantId: string;
  status: string;
  currency: string;
  amountMinor: bigint;
  tokenAsset: string | null;
  tokenAmount: bigint | null;
  buyerAccount: string | null;
  /** The token's decimals. */
  decimals: number | null;
  /** Paid to a collector of this service (collector mode): the collector's address. */
  collector: string | null;
  refunded: Refunded;
  /** Its refunds not failed. */
  refundCount: number;
}

export async function lockRefundable(db: Db, paymentId: string): Promise<RefundablePayment | undefined> {
  const knex = knexOf(db);
  // The lock first, then the read in a statement of its own: its snapshot includes the refunds committed while
  // this waited for the lock (a subquery of the locking statement would not).
  await knex.raw(`SELECT 1 FROM payments WHERE id = ? FOR UPDATE`, [paymentId]);
  const { rows } = await knex.raw(
    `SELECT p.account_id, p.merchant_id, p.status, p.currency, p.amount_minor, p.token_asset, p.token_amount, p.buyer_account,
       (SELECT decimals FROM assets s WHERE s.id = p.token_asset) AS decimals,
       CASE WHEN ${PAID_TO_COLLECTOR} THEN o.relayer END AS collector,
       t.refunded_minor, t.refunded_tokens, t.refund_count
     FROM payments p LEFT JOIN payment_options o ON o.id = p.option_id,
       LATERAL (SELECT coalesce(sum(amount_minor), 0) AS refunded_minor, coalesce(sum(token_amount), 0) AS refunded_tokens,
         count(*) AS refund_count FROM refunds r WHERE r.payment_id = p.id AND ${inSet('r.status', REFUND_COUNTED)}) t
     WHERE p.id = ?`,
    [paymentId],
  );
  const r: Row | undefined = rows[0];
  return (
    r && {
      accountId: r.account_id,
      merchantId: r.merchant_id,
      status: r.status,
      currency: r.currency,
      amountMinor: BigInt(r.amount_minor),
      tokenAsset: r.token_asset,
      tokenAmount: r.token_amount === null ? null : BigInt(r.token_amount),
      buyerAccount: r.buyer_account,
      decimals: r.decimals === null ? null : Number(r.decimals),
      collector: r.collector ?? null,
      refunded: { minor: BigInt(r.refunded_minor), tokens: BigInt(r.refunded_tokens) },
      refundCount: Number(r.refund_count),
    }
  );
}

export async function insertRefund(
  db: Db,
  r: Omit<RefundRow, 'failureCode' | 'chainTxId' | 'txHash' | 'createdAt' | 'fundingPaymentId'>,
): Promise<RefundRow> {
  const knex = knexOf(db);
  const [row] = await knex('refunds')
    .insert({
      id: r.id,
      payment_id: r.paymentId,
      account_id: r.accountId,
      amount_minor: r.amountMinor.toString(),
      currency: r.currency,
      token_asset: r.tokenAsset,
      token_amount: r.tokenAmount.toString(),
      recipient: r.recipient,
      status: r.status,
    })
    .returning('*');
  return fromRow(row);
}

export async function findRefund(db: Db, id: string): Promise<RefundRow | undefined> {
  const r = await withFunding(db).where('refunds.id', id).first();
  return r && fromRow(r);
}

/** A payment's refunds, oldest first, after the (createdAt, id) of `after`. */
export async function refundsOfPayment(
  db: Db,
  paymentId: string,
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<RefundRow[]> {
  const q = withFunding(db)
    .where('refunds.payment_id', paymentId)
    .orderBy([{ column: 'refunds.created_at' }, { column: 'refunds.id' }])
    .limit(limit);
  if (after) q.whereRaw('(refunds.created_at, refunds.id) > (?::timestamptz, ?)', [after.createdAt, after.id]);
  return (await q).map(fromRow);
}

/**
 * A payment's `limit` latest refunds, oldest first, and what all its refunds not failed add up to (as refundTotals):
 * one statement, the sums a window over every refund of the payment (computed before the limit).
 */
export async function latestRefundsOfPayment(db: Db, paymentId: string, limit: number): Promise<{ rows: RefundRow[]; totals: Refunded }> {
  const knex = knexOf(db);
  const rows = await withFunding(db)
    .select(
      knex.raw(`coalesce(sum(amount_minor) FILTER (WHERE ${COUNTED}) OVER (), 0) AS refunded_minor`),
      knex.raw(`coalesce(sum(token_amount) FILTER (WHERE ${COUNTED}) OVER (), 0) AS refunded_tokens`),
    )
    .where('refunds.payment_id', paymentId)
    .orderBy([
      { column: 'refunds.created_at', order: 'desc' },
      { column: 'refunds.id', order: 'desc' },
    ])
    .limit(limit);
  const first: Row | undefined = rows[0];
  const totals = first ? { minor: BigInt(first.refunded_minor), tokens: BigInt(first.refunded_tokens) } : { minor: 0n, tokens: 0n };
  return { rows: rows.map(fromRow).reverse(), totals };
}

/**
 * The refund of a payment to send next: the oldest waiting (pending or requires_funding); and whether a refund
 * transaction of the payment is in flight (then nothing is sent: one at a time).
 */
export async function nextRefund(db: Db, paymentId: string): Promise<{ refund: RefundRow | undefined; live: boolean }> {
  if (await refundInFlight(db, paymentId)) return { refund: undefined, live: true };
  const r = await knexOf(db)('refunds')
    .where({ payment_id: paymentId })
    .whereIn('status', REFUND_OPEN)
    .orderBy(['created_at', 'id'])
    .first();
  return { refund: r && fromRow(r), live: false };
}

/** Whether a refund transaction of the payment is stored and not final (one at a time per payment). */
export async function refundInFlight(db: Db, paymentId: string): Promise<boolean> {
  const live = await knexOf(db)('chain_transactions')
    .where({ payment_id: paymentId, purpose: 'refund' })
    .whereIn('status', TX_OPEN)
    .first('id');
  return live !== undefined;
}

/** The refund a stored refund transaction sends (set in the transaction that stores it). */
export async function attachTx(db: Db, refundId: string, chainTxId: string): Promise<void> {
  await knexOf(db)('refunds')
    .where({ id: refundId })
    .update({ chain_tx_id: chainTxId, status: 'pending', updated_at: knexOf(db).fn.now() });
}

/** Whether a refund still waits to be sent (pending or requires_funding), its row locked until the transaction ends. */
export async function waitingRefund(db: Db, id: string): Promise<boolean> {
  const { rows } = await knexOf(db).raw(`SELECT status FROM refunds WHERE id = ? FOR UPDATE`, [id]);
  return rows[0] !== undefined && (REFUND_OPEN as readonly string[]).includes(rows[0].status);
}

export async function refundOfTx(db: Db, chainTxId: string): Promise<RefundRow | undefined> {
  const r = await knexOf(db)('refunds').where({ chain_tx_id: chainTxId }).first();
  return r && fromRow(r);
}

/** Moves a refund on, from a waiting state only (final states never change); false if it was not waiting. */
export async function settleRefund(
  db: Db,
  id: string,
  status: RefundStatus,
  changes: { failureCode?: string; txHash?: string } = {},
): Promise<boolean> {
  const knex = knexOf(db);
  const n = await knex('refunds')
    .where({ id })
    .whereIn('status', REFUND_OPEN)
    .update({ status, failure_code: changes.failureCode ?? null, tx_hash: changes.txHash ?? null, updated_at: knex.fn.now() });
  return n > 0;
}

/** The account's balance at the collector does not cover the refund (yet): it waits, looked at again by the reconciler. */
export async function waitForFunding(db: Db, id: string): Promise<void> {
  const knex = knexOf(db);
  await knex('refunds').where({ id }).whereIn('status', REFUND_OPEN).update({ status: 'requires_funding', updated_at: knex.fn.now() });
}

/** Payments with a refund waiting and no refund transaction in flight, idle `idleSeconds` (the reconciler). */
export async function waitingRefunds(db: Db, idleSeconds: number, limit = 200): Promise<string[]> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `SELECT DISTINCT r.payment_id FROM refunds r
     WHERE ${inSet('r.status', REFUND_OPEN)} AND r.updated_at < now() - make_interval(secs => ?)
       AND NOT EXISTS (SELECT 1 FROM chain_transactions c WHERE c.payment_id = r.payment_id AND c.purpose = 'refund'
         AND ${inSet('c.status', TX_OPEN)})
     LIMIT ?`,
    [idleSeconds, limit],
  );
  return rows.map((r: Row) => r.payment_id);
}

/** What of a payment is refunded or on its way back (refunds not failed), in its currency's minor units and in tokens. */
export async function refundTotals(db: Db, paymentId: string): Promise<Refunded> {
  const { rows } = await knexOf(db).raw(
    `SELECT coalesce(sum(amount_minor), 0) AS minor, coalesce(sum(token_amount), 0) AS tokens FROM refunds
     WHERE payment_id = ? AND ${COUNTED}`,
    [paymentId],
  );
  return { minor: BigInt(rows[0].minor), tokens: BigInt(rows[0].tokens) };
}

/** Tokens of a payment refunded or on their way back: what its settlement no longer sends. */
export const refundedTokens = async (db: Db, paymentId: string) => (await refundTotals(db, paymentId)).tokens;

/** Payments with refunds waiting for funds of the account that `paidPaymentId` (just collected) belongs to. */
export async function awaitingFunds(db: Db, paidPaymentId: string, limit = 50): Promise<string[]> {
  const { rows } = await knexOf(db).raw(
    `SELECT DISTINCT r.payment_id FROM refunds r JOIN payments p ON p.account_id = r.account_id
     WHERE p.id = ? AND r.status = 'requires_funding' LIMIT ?`,
    [paidPaymentId, limit],
  );
  return rows.map((r: Row) => r.payment_id);
}

export async function insertFunding(db: Db, refundId: string, paymentId: string): Promise<void> {
  await knexOf(db)('refund_fundings').insert({ refund_id: refundId, payment_id: paymentId });
}

/** The refund `paymentId` funds, if it is a refund's funding. */
export async function refundFundedBy(db: Db, paymentId: string): Promise<RefundRow | undefined> {
  const r = await withFunding(db)
    .whereIn('refunds.id', knexOf(db)('refund_fundings').where({ payment_id: paymentId }).select('refund_id'))
    .first();
  return r && fromRow(r);
}

/**
 * A refund waiting for funds, its row locked until the transaction ends: the status of its latest funding payment
 * (null: it has none). Undefined when the refund no longer waits for funds.
 */
export async function lockAwaitingFunds(db: Db, refundId: string): Promise<{ fundingStatus: PaymentStatus | null } | undefined> {
  const { rows } = await knexOf(db).raw(
    `SELECT r.status, (SELECT p.status FROM payments p WHERE p.id = ${LATEST_FUNDING('r')}) AS funding_status
     FROM refunds r WHERE r.id = ? FOR UPDATE OF r`,
    [refundId],
  );
  const r: Row | undefined = rows[0];
  return r?.status === 'requires_funding' ? { fundingStatus: r.funding_status ?? null } : undefined;
}

/** Funding payments of the refund that ended unpaid (expired, failed or cancelled). */
export async function unpaidFundings(db: Db, refundId: string): Promise<number> {
  const { rows } = await knexOf(db).raw(
    `SELECT count(*)::int AS n FROM refund_fundings f JOIN payments p ON p.id = f.payment_id
     WHERE f.refund_id = ? AND p.status IN (${UNPAID.map(() => '?').join(', ')})`,
    [refundId, ...UNPAID],
  );
  return rows[0].n;
}

/** When `paymentId` funds a refund: the refund's asset (the only one the funding may be paid in). */
export async function fundedRefundAsset(db: Db, paymentId: string): Promise<string | null> {
  const r = await knexOf(db)('refund_fundings as f')
    .join('refunds as r', 'r.id', 'f.refund_id')
    .where('f.payment_id', paymentId)
    .first('r.token_asset');
  return r?.token_asset ?? null;
}

/** Refunds waiting for funding, and the age of the oldest, in seconds (for metrics). */
export async function awaitingFunding(db: Db): Promise<{ count: number; oldestS: number }> {
  const { rows } = await knexOf(db).raw(
    `SELECT count(*)::int AS n, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 AS oldest
       FROM refunds WHERE status = 'requires_funding'`,
  );
  return { count: Number(rows[0].n), oldestS: Number(rows[0].oldest) };
}
