import { Db, knexOf } from './knex';
import { IN_BATCH, PAID_TO_COLLECTOR, standing } from './relayer';
import { recordSettlementPlans } from './payments';
import { refundedSql } from './stateSql';

// Scheduled settlement (docs/ledger.md, "Settlement on a schedule"): an account with `settlement_every_minutes` N > 0
// settles every N minutes, in slots aligned on the epoch; at a slot's start, the shares of a merchant's payments
// collected before it go in one transfer per asset and collector (a `settle_batch` transaction, no payment's own).
// A batch is stored with its transaction (settlement_batches, migration 20261213090100): one per merchant, asset,
// collector and slot, and a payment in one batch at most that was not released.

type Row = Record<string, any>;

/**
 * SQL: the payment aliased `alias` (of the account aliased `acct`) settles on its account's schedule, not on its own:
 * its collection is in the ledger (payments collected before it existed settle as before).
 */
export const ON_SCHEDULE = (alias: string, acct: string) =>
  `(${acct}.settlement_every_minutes > 0 AND EXISTS (SELECT 1 FROM ledger_journals cj WHERE cj.ref = 'collected:' || ${alias}.id))`;

/** Whether a payment settles on its account's schedule. */
export async function settlesOnSchedule(db: Db, paymentId: string): Promise<boolean> {
  const { rows } = await knexOf(db).raw(
    `SELECT ${ON_SCHEDULE('p', 'a')} AS on_schedule FROM payments p JOIN accounts a ON a.id = p.account_id WHERE p.id = ?`,
    [paymentId],
  );
  return Boolean(rows[0]?.on_schedule);
}

/** False when the account does not exist. */
export async function setSchedule(db: Db, accountId: string, everyMinutes: number): Promise<boolean> {
  return (await knexOf(db)('accounts').where({ id: accountId }).update({ settlement_every_minutes: everyMinutes })) > 0;
}

export interface BatchMember {
  paymentId: string;
  /** The merchant's share less what was refunded (or is on its way back): zero or less, nothing is left to settle. */
  amount: bigint;
  fee: bigint;
  refunded: bigint;
}

export interface DueBatch {
  accountId: string;
  merchantId: string;
  asset: string;
  chainId: string;
  collector: string;
  destination: string;
  slot: Date;
  members: BatchMember[];
}

/**
 * Payments of scheduled accounts whose settlement is due in their slot: succeeded, collected (in the ledger) before
 * the slot's start, neither settled, held, waiting for their next attempt, a refund's funding, nor on their way (a
 * transfer of their own or a batch), with their merchant's destination for the asset. `unitMs`: a schedule's
 * minute (shorter in tests). `only`: these payments only, whatever their slot's batch (the check as a batch is stored).
 */
async function duePayments(db: Db, unitMs: number, only?: string[]): Promise<Row[]> {
  const { rows } = await knexOf(db).raw(
    `WITH due AS (
       SELECT p.id, p.account_id, p.merchant_id, p.token_asset AS asset, o.chain_id, o.relayer AS collector, cs.destination,
         to_timestamp(floor(extract(epoch FROM now()) * 1000 / (a.settlement_every_minutes * :unit))
           * (a.settlement_every_minutes * :unit) / 1000.0) AS slot,
         j.created_at AS collected_at, e.amount AS share,
         (SELECT coalesce(sum(f.amount), 0) FROM ledger_entries f WHERE f.journal_id = j.id AND f.owner = 'operator'
           AND f.bucket = 'fees') AS fee,
         ${refundedSql('p.id', 'token_amount')} AS refunded
       FROM payments p JOIN accounts a ON a.id = p.account_id AND a.settlement_every_minutes > 0
         JOIN payment_options o ON o.id = p.option_id
         JOIN ledger_journals j ON j.ref = 'collected:' || p.id
         JOIN ledger_entries e ON e.journal_id = j.id AND e.owner = p.account_id AND e.bucket = 'available'
         JOIN crypto_settlements cs ON cs.merchant_id = p.merchant_id AND cs.asset = p.token_asset
       WHERE p.status = 'succeeded' AND p.settled_at IS NULL AND p.settlement_held_at IS NULL
         AND coalesce(p.settlement_next_at <= now(), true) AND ${PAID_TO_COLLECTOR}
         AND (CAST(:only AS text[]) IS NULL OR p.id = ANY(CAST(:only AS text[])))
         AND NOT EXISTS (SELECT 1 FROM refund_fundings rf WHERE rf.payment_id = p.id)
         AND NOT EXISTS (SELECT 1 FROM chain_transactions s WHERE s.payment_id = p.id AND s.purpose = 'settle' AND ${standing('s')})
         AND NOT ${IN_BATCH('p')})
     SELECT * FROM due d WHERE CAST(:only AS text[]) IS NOT NULL OR (d.collected_at < d.slot
       AND NOT EXISTS (SELECT 1 FROM settlement_batches b WHERE b.merchant_id = d.merchant_id AND b.asset = d.asset
         AND b.collector = d.collector AND b.slot = d.slot))
     ORDER BY d.merchant_id, d.asset, d.collector, d.id`,
    { unit: unitMs, only: only ?? null },
  );
  return rows;
}

const member = (r: Row): BatchMember => ({
  paymentId: r.id,
  amount: BigInt(r.share) - BigInt(r.refunded),
  fee: BigInt(r.fee),
  refunded: BigInt(r.refunded),
});

/** The batches due now: per merchant, asset and collector, the payments of its slot. */
export async function dueBatches(db: Db, unitMs: number): Promise<DueBatch[]> {
  const out = new Map<string, DueBatch>();
  for (const r of await duePayments(db, unitMs)) {
    const k = `${r.merchant_id}|${r.asset}|${r.collector}`;
    let b = out.get(k);
    if (!b)
      out.set(
        k,
        (b = {
          accountId: r.account_id,
          merchantId: r.merchant_id,
          asset: r.asset,
          chainId: r.chain_id,
          collector: r.collector,
          destination: r.destination,
          slot: new Date(r.slot),
          members: [],
        }),
      );
    b.members.push(member(r));
  }
  return [...out.values()];
}

/**
 * Stores a batch with its transaction (in the transaction that stores it signed, under the collector's nonce lock):
 * the batch first (a second batch of the slot fails on its unique key, as a payment in a second batch does), then
 * its payments locked and checked again (each still due, with the amount read), and what each payment's settlement
 * sends. The payment that changed since the batch was read (a refund, a hold, a settlement since), if one did:
 * then the caller stores nothing.
 */
export async function storeBatch(db: Db, chainTxId: string, b: DueBatch, unitMs: number): Promise<string | null> {
  const knex = knexOf(db);
  const amount = b.members.reduce((s, m) => s + m.amount, 0n);
  await knex('settlement_batches').insert({
    chain_tx_id: chainTxId,
    account_id: b.accountId,
    merchant_id: b.merchantId,
    asset: b.asset,
    collector: b.collector,
    destination: b.destination,
    slot: b.slot,
    amount: amount.toString(),
  });
  const ids = b.members.map((m) => m.paymentId);
  await knex.raw(`SELECT 1 FROM payments WHERE id = ANY(?::text[]) ORDER BY id FOR NO KEY UPDATE`, [ids]);
  const now = new Map((await duePayments(db, unitMs, ids)).map((r) => [r.id as string, member(r)]));
  const changed = b.members.find((m) => now.get(m.paymentId)?.amount !== m.amount);
  if (changed) return changed.paymentId;
  await knex('settlement_batch_payments').insert(
    b.members.map((m) => ({ chain_tx_id: chainTxId, payment_id: m.paymentId, amount: m.amount.toString() })),
  );
  await recordSettlementPlans(
    db,
    b.members.map((m) => ({ paymentId: m.paymentId, fee: m.fee, amount: m.amount, destination: b.destination })),
  );
  return null;
}

/** The payments of a batch's transaction (none for any other transaction). */
export async function batchPayments(db: Db, chainTxId: string): Promise<string[]> {
  return knexOf(db)('settlement_batch_payments').where({ chain_tx_id: chainTxId }).orderBy('payment_id').pluck('payment_id');
}

/** Its transaction reverted or was dropped: its payments may go in a later slot's batch. */
export async function releaseBatch(db: Db, chainTxId: string): Promise<void> {
  const knex = knexOf(db);
  await knex('settlement_batch_payments').where({ chain_tx_id: chainTxId }).update({ released: true });
  await knex('settlement_batches').where({ chain_tx_id: chainTxId }).whereNull('released_at').update({ released_at: knex.fn.now() });
}
