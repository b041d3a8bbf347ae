import type { Knex } from 'knex';

// The refund reserve's releases (docs/ledger.md "Refund reserve"), for the soak's checks: each is one transfer of the
// reserves it released from their collector to the merchant, and it settles what the payment's own settlement did not.

type Row = Record<string, any>;

export interface Releases {
  /** Per confirmed release transaction: what it sent in all. */
  byTx: Map<string, bigint>;
  /**
   * What releases sent of a payment's reserve beyond its settlement's `settlement_amount` (a payment whose whole share was
   * reserved is settled by its release: that amount is its `settlement_amount` already).
   */
  extraOf(paymentId: string): bigint;
  /** The share the payment's collection held in reserve (0: none). */
  reserveOf(paymentId: string): bigint;
}

export async function releases(db: Knex): Promise<Releases> {
  const rows: Row[] = (
    await db.raw(
      `SELECT r.payment_id, r.amount AS reserve, c.tx_hash, c.status, p.settlement_tx_hash,
         (SELECT coalesce(-sum(e.amount), 0) FROM ledger_journals j JOIN ledger_entries e ON e.journal_id = j.id
          WHERE j.ref = 'settle_reserved:' || r.release_tx_id || ':' || r.payment_id AND e.bucket = 'reserve') AS released
       FROM refund_reserves r JOIN payments p ON p.id = r.payment_id LEFT JOIN chain_transactions c ON c.id = r.release_tx_id`,
    )
  ).rows;
  const byTx = new Map<string, bigint>();
  const extra = new Map<string, bigint>();
  const reserve = new Map<string, bigint>();
  for (const r of rows) {
    reserve.set(r.payment_id, BigInt(r.reserve));
    if (r.status !== 'confirmed') continue;
    byTx.set(r.tx_hash, (byTx.get(r.tx_hash) ?? 0n) + BigInt(r.released));
    if (r.settlement_tx_hash !== r.tx_hash) extra.set(r.payment_id, BigInt(r.released));
  }
  return { byTx, extraOf: (id) => extra.get(id) ?? 0n, reserveOf: (id) => reserve.get(id) ?? 0n };
}
