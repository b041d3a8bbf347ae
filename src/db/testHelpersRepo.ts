import { knexOf, type Db } from './knex';

// What the test helpers (src/usecases/testHelpers/) keep and read: stalls asked for, a payment's expiry brought to
// now, the payment's transaction a reorg may drop.

/** The next transaction signed for the payment offers less than the base fee (src/usecases/testHelpers/stall.ts). */
export async function requestStall(db: Db, paymentId: string): Promise<void> {
  await knexOf(db)('test_helper_stalls').insert({ payment_id: paymentId }).onConflict('payment_id').ignore();
}

/** Of `paymentIds`, those whose next transaction is to stall. */
export async function stallsAsked(db: Db, paymentIds: string[]): Promise<Set<string>> {
  if (!paymentIds.length) return new Set();
  const rows = await knexOf(db)('test_helper_stalls').whereIn('payment_id', paymentIds).pluck('payment_id');
  return new Set(rows);
}

/** The stall was applied: in the transaction that stores the stalled transaction. */
export async function stallTaken(db: Db, paymentId: string): Promise<void> {
  await knexOf(db)('test_helper_stalls').where({ payment_id: paymentId }).delete();
}

/** An open payment's expiry set to the database's now; false when the payment is not open. */
export async function expiryNow(db: Db, paymentId: string): Promise<boolean> {
  const n = await knexOf(db)('payments')
    .where({ id: paymentId, status: 'requires_action' })
    .update({ expires_at: knexOf(db).fn.now() });
  return n > 0;
}

/** The payment's transaction that is mined and not yet final (the latest, of any purpose), or null. */
export async function minedTransaction(db: Db, paymentId: string): Promise<{ hash: string; chainId: string } | null> {
  const row = await knexOf(db)('chain_transactions')
    .where({ payment_id: paymentId, status: 'mined' })
    .orderBy('id', 'desc')
    .first('tx_hash', 'chain_id');
  return row ? { hash: row.tx_hash, chainId: row.chain_id } : null;
}
