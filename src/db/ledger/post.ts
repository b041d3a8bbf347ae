import type { Journal } from '../../domain/ledger';
import { Db, knexOf } from '../knex';

// Appending journals. Each journal's ref is unique: a step that runs again (a retried job, a second monitor pass)
// records nothing the second time. Whether a journal balances is checked by PostgreSQL at commit
// (migrations/functions/ledger_journal_balanced.sql); the rows are never updated or deleted.

/** Appends the journals not recorded yet (by ref); their refs, of those this call appended. */
export async function postJournals(db: Db, journals: Journal[]): Promise<Set<string>> {
  const knex = knexOf(db);
  const list = journals.filter((j) => j.entries.length > 0);
  if (!list.length) return new Set();
  const inserted: { id: string; ref: string }[] = await knex('ledger_journals')
    .insert(
      list.map((j) => ({
        ref: j.ref,
        kind: j.kind,
        account_id: j.accountId ?? null,
        payment_id: j.paymentId ?? null,
        refund_id: j.refundId ?? null,
        chain_tx_id: j.chainTxId ?? null,
        chain_id: j.chainId ?? null,
        tx_hash: j.txHash ?? null,
        block_number: j.blockNumber === null || j.blockNumber === undefined ? null : j.blockNumber.toString(),
      })),
    )
    .onConflict('ref')
    .ignore()
    .returning(['id', 'ref']);
  const idOf = new Map(inserted.map((r) => [r.ref, String(r.id)]));
  const rows = list.flatMap((j) =>
    idOf.has(j.ref)
      ? j.entries.map((e) => ({
          journal_id: idOf.get(j.ref),
          owner: e.owner,
          bucket: e.bucket,
          asset: e.asset,
          holder: e.holder,
          amount: e.amount.toString(),
        }))
      : [],
  );
  if (rows.length) await knex('ledger_entries').insert(rows);
  return new Set(idOf.keys());
}

/**
 * The pending collect journals of a chain transaction not yet reversed: refs and the block each was recorded at.
 * Read under the transaction's row lock (its status update comes first in the same database transaction).
 */
export async function openPendings(db: Db, chainTxId: string): Promise<{ ref: string; blockNumber: bigint | null }[]> {
  const knex = knexOf(db);
  const rows = await knex('ledger_journals as j')
    .where({ 'j.chain_tx_id': chainTxId, 'j.kind': 'collect_pending' })
    .whereNotExists(knex('ledger_journals as r').whereRaw(`r.ref = 'un' || j.ref`))
    .select('j.ref', 'j.block_number');
  return rows.map((r: Record<string, any>) => ({ ref: r.ref, blockNumber: r.block_number === null ? null : BigInt(r.block_number) }));
}

/** How many pending collect journals a chain transaction has had (the next one's sequence number). */
export async function pendingCount(db: Db, chainTxId: string): Promise<number> {
  const knex = knexOf(db);
  const r = await knex('ledger_journals').where({ chain_tx_id: chainTxId, kind: 'collect_pending' }).count('* as n').first();
  return Number(r?.n ?? 0);
}

/** The entries of one journal, to post their reverse. */
export async function journalEntries(db: Db, ref: string) {
  const knex = knexOf(db);
  const rows = await knex('ledger_entries as e')
    .join('ledger_journals as j', 'j.id', 'e.journal_id')
    .where('j.ref', ref)
    .select('e.owner', 'e.bucket', 'e.asset', 'e.holder', 'e.amount');
  return rows.map((r: Record<string, any>) => ({
    owner: r.owner,
    bucket: r.bucket,
    asset: r.asset,
    holder: r.holder,
    amount: BigInt(r.amount),
  }));
}

export async function hasJournal(db: Db, ref: string): Promise<boolean> {
  const knex = knexOf(db);
  return Boolean(await knex('ledger_journals').where({ ref }).first('id'));
}

/** The refund a journal names (its funding moved), if any. */
export async function journalRefund(db: Db, ref: string): Promise<string | null> {
  const r = await knexOf(db)('ledger_journals').where({ ref }).first('refund_id');
  return r?.refund_id ?? null;
}

/** The suffixes of the journals whose refs extend `ref` by `:<suffix>` (a transfer's reservations per payment). */
export async function suffixedJournals(db: Db, ref: string): Promise<string[]> {
  const refs: string[] = await knexOf(db)('ledger_journals')
    .whereRaw('starts_with(ref, ?)', [`${ref}:`])
    .orderBy('ref')
    .pluck('ref');
  return refs.map((r) => r.slice(ref.length + 1));
}
