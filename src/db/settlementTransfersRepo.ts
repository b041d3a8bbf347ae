import { OPERATOR_HOLD } from '../domain/settlementState';
import { Db, knexOf } from './knex';
import { IN_BATCH, PAID_TO_COLLECTOR, standing, type TxStatus } from './relayer';

// Settlement transfers (collector mode: the merchant's share sent from the collector to its destination): what
// sending one needs, and its attempts. A failed attempt (a revert, or a simulation that says it would fail) is
// counted and the next one waits, longer each time; after the bound the settlement is held with a reason until
// an operator retries it. `settlement_*` columns of payments (migration 20261202090100).

type Row = Record<string, any>;

export interface SettlementInput {
  /** Paid to the collector (ReceiveWithAuthorization, or a permit to the relayer): a settlement transfer is due. */
  collected: boolean;
  /** The collector that received the buyer's funds (the option's relayer key). */
  collector: string | null;
  /** The payment's collect transaction, if the relayer sent it (null when the authorization was used by another). */
  collectStatus: TxStatus | null;
  settleLive: boolean;
  /** Held by an operator or after too many attempts, or waiting before its next attempt. */
  held: boolean;
  waiting: boolean;
  destination: string | null;
  feeBaseMinor: bigint;
  feeBps: number;
}

/**
 * What settling a payment needs besides the payment, in one read: how it was paid, its collect transaction,
 * whether a settlement transaction is live, whether it is held or waiting, the merchant's destination for the
 * asset now, and the fee terms fixed at confirm (the account's, for payments confirmed before they were).
 */
export async function settlementInput(db: Db, p: { id: string; merchantId: string }, asset: string): Promise<SettlementInput> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `SELECT ${PAID_TO_COLLECTOR} AS collected, o.relayer AS collector,
       (SELECT c.status FROM chain_transactions c WHERE c.payment_id = p.id AND c.purpose = 'collect' AND ${standing('c')}
        LIMIT 1) AS collect_status,
       (EXISTS (SELECT 1 FROM chain_transactions s WHERE s.payment_id = p.id AND s.purpose = 'settle' AND ${standing('s')})
         OR ${IN_BATCH('p')}) AS settle_live,
       p.settlement_held_at IS NOT NULL AS held, coalesce(p.settlement_next_at > now(), false) AS waiting,
       (SELECT destination FROM crypto_settlements WHERE merchant_id = ? AND asset = ?) AS destination,
       coalesce(p.fee_base_minor, a.fee_base_minor) AS fee_base_minor, coalesce(p.fee_bps, a.fee_bps) AS fee_bps
     FROM payments p JOIN accounts a ON a.id = p.account_id LEFT JOIN payment_options o ON o.id = p.option_id
     WHERE p.id = ?`,
    [p.merchantId, asset, p.id],
  );
  const r: Row | undefined = rows[0];
  return {
    collected: Boolean(r?.collected),
    collector: r?.collector ?? null,
    collectStatus: r?.collect_status ?? null,
    settleLive: Boolean(r?.settle_live),
    held: Boolean(r?.held),
    waiting: Boolean(r?.waiting),
    destination: r?.destination ?? null,
    feeBaseMinor: BigInt(r?.fee_base_minor ?? 0),
    feeBps: Number(r?.fee_bps ?? 0),
  };
}

/**
 * Counts a failed attempt, with its reason (a row of settlement_failures): the next waits `baseMs` doubled per attempt
 * so far; the `maxAttempts`-th holds the settlement with `reason`. Only an attempt that can be the last one counts: none
 * while a settlement transaction of the payment stands (it may still be mined: a hold then would be followed by a
 * transfer nobody retried), and a failed simulation (no `txHash`) only when an attempt was due (steps of one payment
 * at once, from two reconcilers, count once). The payment's row is locked first, so that the checks see what a
 * settlement stored meanwhile has committed (storeSignedTxs locks it too). Whether it is held now (`newlyHeld`: by
 * this attempt), or undefined if the attempt did not count (or the payment is settled already).
 */
export async function recordSettlementFailure(
  db: Db,
  paymentId: string,
  failure: { reason: string; txHash?: string },
  policy: { maxAttempts: number; baseMs: number },
): Promise<{ attempts: number; held: boolean; newlyHeld: boolean } | undefined> {
  const knex = knexOf(db);
  await knex.raw(`SELECT 1 FROM payments WHERE id = ? FOR NO KEY UPDATE`, [paymentId]);
  const { rows } = await knex.raw(
    `UPDATE payments p SET settlement_attempts = settlement_attempts + 1,
       settlement_next_at = now() + make_interval(secs => ? * power(2, least(settlement_attempts, 12))),
       settlement_held_at = CASE WHEN settlement_attempts + 1 >= ? THEN coalesce(settlement_held_at, now()) ELSE settlement_held_at END,
       settlement_hold_reason = CASE WHEN settlement_attempts + 1 >= ? THEN ? ELSE settlement_hold_reason END
     WHERE id = ? AND settled_at IS NULL AND (? OR coalesce(settlement_next_at <= now(), true))
       AND NOT EXISTS (SELECT 1 FROM chain_transactions s WHERE s.payment_id = p.id AND s.purpose = 'settle' AND ${standing('s')})
     RETURNING settlement_attempts, settlement_held_at IS NOT NULL AS held`,
    [policy.baseMs / 1000, policy.maxAttempts, policy.maxAttempts, failure.reason, paymentId, failure.txHash !== undefined],
  );
  const r = rows[0];
  if (!r) return undefined;
  const attempts = Number(r.settlement_attempts);
  const newlyHeld = attempts === policy.maxAttempts;
  await knex('settlement_failures').insert({
    payment_id: paymentId,
    attempt: attempts,
    reason: failure.reason,
    tx_hash: failure.txHash ?? null,
    held: newlyHeld,
  });
  return { attempts, held: Boolean(r.held), newlyHeld };
}

export interface HeldSettlement {
  paymentId: string;
  accountId: string;
  merchantId: string;
  asset: string | null;
  tokenAmount: string | null;
  attempts: number;
  reason: string | null;
  heldAt: string;
}

/** Held settlements, oldest first; of one account with `accountId`. */
export async function heldSettlements(db: Db, accountId?: string, limit = 100): Promise<HeldSettlement[]> {
  const knex = knexOf(db);
  const q = knex('payments')
    .whereNotNull('settlement_held_at')
    .whereNull('settled_at')
    .orderBy('settlement_held_at')
    .limit(limit)
    .select(
      'id',
      'account_id',
      'merchant_id',
      'token_asset',
      'token_amount',
      'settlement_attempts',
      'settlement_hold_reason',
      'settlement_held_at',
    );
  if (accountId) q.where({ account_id: accountId });
  return (await q).map((r: Row) => ({
    paymentId: r.id,
    accountId: r.account_id,
    merchantId: r.merchant_id,
    asset: r.token_asset,
    tokenAmount: r.token_amount === null ? null : String(r.token_amount),
    attempts: Number(r.settlement_attempts),
    reason: r.settlement_hold_reason,
    heldAt: new Date(r.settlement_held_at).toISOString(),
  }));
}

/**
 * An operator holds a payment's settlement: nothing is sent until it is retried. Undefined if it is settled or
 * unknown; `newlyHeld` unless it was held already (its reason is replaced).
 */
export async function holdSettlement(db: Db, paymentId: string, reason: string): Promise<{ newlyHeld: boolean } | undefined> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `UPDATE payments p SET settlement_held_at = coalesce(p.settlement_held_at, now()), settlement_hold_reason = ?
     FROM (SELECT id, settlement_held_at FROM payments WHERE id = ? FOR UPDATE) old
     WHERE p.id = old.id AND p.status = 'succeeded' AND p.settled_at IS NULL RETURNING old.settlement_held_at IS NULL AS newly_held`,
    [reason, paymentId],
  );
  return rows[0] && { newlyHeld: Boolean(rows[0].newly_held) };
}

/** An operator releases a held settlement: its attempts start again from zero, at once. False if it is settled or unknown. */
export async function retrySettlement(db: Db, paymentId: string): Promise<boolean> {
  const knex = knexOf(db);
  const n = await knex('payments')
    .where({ id: paymentId, status: 'succeeded' })
    .whereNull('settled_at')
    .update({ settlement_held_at: null, settlement_hold_reason: null, settlement_attempts: 0, settlement_next_at: knex.fn.now() });
  return n > 0;
}

/**
 * The merchant's destination for `asset` changed: its payments' settlements in the asset held after their attempts
 * start again from zero, at once, to the destination read when they are sent (an operator's hold stays). How many.
 */
export async function releaseHeldSettlements(db: Db, merchantId: string, asset: string): Promise<number> {
  const knex = knexOf(db);
  return knex('payments')
    .where({ merchant_id: merchantId, token_asset: asset, status: 'succeeded' })
    .whereNull('settled_at')
    .whereNotNull('settlement_held_at')
    .whereRaw(`coalesce(settlement_hold_reason, '') !~ ?`, [OPERATOR_HOLD.source])
    .update({ settlement_held_at: null, settlement_hold_reason: null, settlement_attempts: 0, settlement_next_at: knex.fn.now() });
}

/** Held settlements (a metric). */
export async function countHeldSettlements(db: Db): Promise<number> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(`SELECT count(*)::int AS n FROM payments WHERE settlement_held_at IS NOT NULL AND settled_at IS NULL`);
  return Number(rows[0].n);
}
