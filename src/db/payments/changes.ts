import type { Knex } from 'knex';
import { newId } from '../../domain/ids';
import { Transition, TransitionChanges, TRANSITIONS, lapses } from '../../domain/payment';
import { preparedByText } from '../prepared';
import { Db, knexOf } from '../knex';
import { PAYMENT_COLUMNS, PAYMENT_WITH_ASSET, PaymentWithAsset, QUEUE_EVENT, effectiveStatusSql, isoSql, lapsedSql, split } from './rows';
import { refundedSql } from '../stateSql';

export const CHANGE_CHANNEL = 'payment_changed';

/**
 * An UPDATE of one payment, its event (`type`) with the NOTIFY that wakes long-polls, and the payment as it is
 * after it (with its asset): one statement, so one round trip and atomic with or without a caller's
 * transaction. The event's `record` and `data` are built here from the updated row (EVENT_RECORD_SQL, EVENT_DATA_SQL); undefined, and
 * nothing written, when no row matched.
 */
async function updateWithEvent(db: Db, update: Knex.QueryBuilder, type: string): Promise<PaymentWithAsset | undefined> {
  const knex = knexOf(db);
  // One SQL text per kind of change: each is prepared once per connection (planning it cost more than running it).
  const change = knex.raw(CHANGE_SQL, [update.returning([...PAYMENT_COLUMNS]), newId('evt'), type, CHANGE_CHANNEL]);
  const { rows } = await preparedByText(knex, change);
  return rows[0] && split(rows[0]);
}
// An event's record built in SQL from the payment row `p` as changed and its token's asset `a` (LEFT JOINed): the
// same as paymentEventRecord (tests/support/eventRecord.ts) of that row, which tests/integration/payments.test.ts ("stored
// events") checks for every kind of change. `data` (the preview snapshot the release before `record` read) is no
// longer written (migration 20261201090100).
const STATUS_SQL = effectiveStatusSql('p');
const PAID_SQL = `(a.id IS NOT NULL AND p.token_amount IS NOT NULL)`;
export const EVENT_RECORD_SQL = `jsonb_build_object(
  'paymentId', p.id, 'merchantId', p.merchant_id, 'referenceId', p.reference_id, 'status', ${STATUS_SQL},
  'failureCode', p.failure_code, 'currency', p.currency, 'amountMinor', p.amount_minor::text,
  'tokenAsset', CASE WHEN ${PAID_SQL} THEN a.id END, 'tokenAmount', CASE WHEN ${PAID_SQL} THEN p.token_amount::text END,
  'txHash', p.tx_hash, 'cancelledReason', p.cancelled_reason, 'refundedAt', ${isoSql('p.refunded_at')},
  'createdAt', ${isoSql('p.created_at')}, 'expiresAt', ${isoSql('p.expires_at')}, 'version', p.version)`;
/** updateWithEvent's statement: the UPDATE (bound as `p`), the event built from its row and queued, the NOTIFY, the row read back. */
const CHANGE_SQL = `WITH p AS (?), e AS (
    INSERT INTO payment_events (id, payment_id, account_id, type, version, record, dispatched_at)
    SELECT ?, p.id, p.account_id, ?, p.version, ${EVENT_RECORD_SQL}, now()
    FROM p LEFT JOIN assets a ON a.id = p.token_asset
    RETURNING id, payment_id, account_id, type
  ), ${QUEUE_EVENT}
  SELECT ${PAYMENT_WITH_ASSET}, (SELECT pg_notify(?, e.payment_id) FROM e) AS notified
  FROM p LEFT JOIN assets a ON a.id = p.token_asset`;

/**
 * Applies a transition if the payment is still in one of its from-states (and, leaving a state that lapses
 * other than by expiry, not yet past its expiry). Returns the new state, or undefined if it did not apply.
 */
export async function applyTransition(
  db: Db,
  id: string,
  t: Transition,
  changes: TransitionChanges = {},
): Promise<PaymentWithAsset | undefined> {
  const { from, to, event } = TRANSITIONS[t];
  // One statement: in the caller's transaction as it is (several may run at once on it, each on its own payment), or alone.
  const knex = knexOf(db);
  const q = knex('payments')
    .where({ id })
    .whereIn('status', from)
    .update({ ...transitionColumns(knex, changes), status: to, ...newVersion(knex) });
  if (t === 'expire') q.andWhere('expires_at', '<=', knex.fn.now());
  else if (from.some(lapses)) q.andWhere('expires_at', '>', knex.fn.now());
  return updateWithEvent(knex, q, event);
}

/** What every change of a payment writes besides its own columns: the next version, and when. */
const newVersion = (knex: Knex) => ({ version: knex.raw('version + 1'), updated_at: knex.fn.now() });

/** The columns a transition's changes write. */
function transitionColumns(trx: Db, changes: TransitionChanges): Record<string, unknown> {
  const knex = knexOf(trx);
  if ('cancelledReason' in changes) return { cancelled_reason: changes.cancelledReason, cancelled_at: knex.fn.now() };
  if ('failureCode' in changes) return { failure_code: changes.failureCode };
  if ('txHash' in changes) return { tx_hash: changes.txHash };
  if ('confirmed' in changes) {
    const c = changes.confirmed;
    return {
      option_id: c.optionId,
      token_asset: c.tokenAsset,
      token_amount: c.tokenAmount.toString(),
      chain_id: c.chainId,
      buyer_account: c.buyerAccount,
      tx_nonce: c.txNonce,
      signature: c.signature,
      caller_info: JSON.stringify(c.callerInfo),
      collected_data: c.collectedData,
      // The fee terms are the account's as the payment is confirmed, whatever they are when it settles.
      fee_base_minor: knex.raw('(SELECT fee_base_minor FROM accounts WHERE accounts.id = payments.account_id)'),
      fee_bps: knex.raw('(SELECT fee_bps FROM accounts WHERE accounts.id = payments.account_id)'),
    };
  }
  return {};
}

/** Marks a succeeded payment refunded; exactly one of any number of racing calls succeeds. */
export async function markRefunded(db: Db, id: string): Promise<PaymentWithAsset | undefined> {
  const knex = knexOf(db);
  return updateWithEvent(
    knex,
    knex('payments')
      .where({ id, status: 'succeeded' })
      .whereNull('refunded_at')
      .update({ refunded_at: knex.fn.now(), ...newVersion(knex) }),
    'payment.refunded',
  );
}

/**
 * A refund of the payment failed: when its refunds not failed no longer cover the whole amount, the payment is no
 * longer refunded (refundedAt cleared, a new version). True when it was cleared.
 */
export async function unmarkRefunded(db: Db, id: string): Promise<boolean> {
  const knex = knexOf(db);
  const n = await knex('payments')
    .where({ id })
    .whereNotNull('refunded_at')
    .whereRaw(`amount_minor > ${refundedSql('payments.id', 'amount_minor')}`)
    .update({ refunded_at: null, ...newVersion(knex) });
  return n > 0;
}

/** The settlement transfer reached its confirmation depth: settlement details and a payment.settled event. */
export async function markSettled(db: Db, id: string, txHash: string): Promise<PaymentWithAsset | undefined> {
  const knex = knexOf(db);
  return updateWithEvent(
    knex,
    knex('payments')
      .where({ id, status: 'succeeded' })
      .whereNull('settled_at')
      .update({ settled_at: knex.fn.now(), settlement_tx_hash: txHash, ...newVersion(knex) }),
    'payment.settled',
  );
}

/** The settlement transfer was just held (after its attempts, or by an operator): a payment.settlement_held event. */
export async function markSettlementHeld(db: Db, id: string): Promise<PaymentWithAsset | undefined> {
  const knex = knexOf(db);
  return updateWithEvent(
    knex,
    knex('payments').where({ id, status: 'succeeded' }).whereNull('settled_at').whereNotNull('settlement_held_at').update(newVersion(knex)),
    'payment.settlement_held',
  );
}

/**
 * What the settlement transfers send where (recorded in the transaction that stores them signed; shown once
 * they are confirmed). One statement for a batch of settlements.
 */
export async function recordSettlementPlans(
  db: Db,
  plans: { paymentId: string; fee: bigint; amount: bigint; destination: string }[],
): Promise<void> {
  const knex = knexOf(db);
  if (!plans.length) return;
  await knex.raw(
    `UPDATE payments SET fee_amount = v.fee::numeric, settlement_amount = v.amount::numeric, settlement_destination = v.destination
     FROM (VALUES ${plans.map(() => '(?, ?, ?, ?)').join(', ')}) AS v(id, fee, amount, destination) WHERE payments.id = v.id`,
    plans.flatMap((p) => [p.paymentId, p.fee.toString(), p.amount.toString(), p.destination]),
  );
}

/** Succeeded collector-mode payments whose settlement is not confirmed yet (a metric). */
export async function settlementBacklog(db: Db): Promise<number> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(`SELECT count(*)::int AS n FROM payments p
    JOIN chain_transactions c ON c.payment_id = p.id AND c.purpose = 'collect' AND c.status = 'confirmed'
    WHERE p.status = 'succeeded' AND p.settled_at IS NULL`);
  return Number(rows[0].n);
}

/** Expires open payments past their expiry, a batch at a time; safe with several sweepers at once. */
export async function expireDue(db: Db, batch = 200): Promise<number> {
  const knex = knexOf(db);
  const due = await knex('payments').whereRaw(lapsedSql('payments')).orderBy('expires_at').limit(batch).pluck('id');
  let n = 0;
  for (const id of due) if (await applyTransition(db, id, 'expire')) n++;
  return n;
}
