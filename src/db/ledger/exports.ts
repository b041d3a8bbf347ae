import { Db, knexOf } from '../knex';

// Balance transactions: the account's ledger entries, one row each, with what they belong to (for reconciliation
// exports). Paged by entry id, which only grows: a page boundary never moves under concurrent appends.

type Row = Record<string, any>;

export interface BalanceTransaction {
  id: string;
  kind: string;
  bucket: string;
  asset: string;
  amount: bigint;
  /** On `collected` entries: the operator's fee of that payment, in the same asset. */
  fee: bigint;
  paymentId: string | null;
  refundId: string | null;
  merchantId: string | null;
  referenceId: string | null;
  chainId: string | null;
  txHash: string | null;
  blockNumber: bigint | null;
  createdAt: Date;
}

export async function balanceTransactions(
  db: Db,
  accountId: string,
  range: { from: Date; to: Date },
  limit: number,
  afterId?: string,
): Promise<BalanceTransaction[]> {
  const knex = knexOf(db);
  // A refund's journals name it (refund_id); those written before journals had the column are found through the
  // refund's last transaction.
  const { rows } = await knex.raw(
    `SELECT e.id, j.kind, e.bucket, e.asset, e.amount, j.payment_id, coalesce(j.refund_id, r.id) AS refund_id, p.merchant_id, p.reference_id,
       j.chain_id, j.tx_hash, j.block_number, j.created_at,
       CASE WHEN j.kind = 'collected' THEN (SELECT coalesce(sum(f.amount), 0) FROM ledger_entries f
         WHERE f.journal_id = j.id AND f.owner = 'operator' AND f.bucket = 'fees') ELSE 0 END AS fee
     FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
       LEFT JOIN payments p ON p.id = j.payment_id
       LEFT JOIN refunds r ON r.chain_tx_id = j.chain_tx_id AND j.kind LIKE 'refund%' AND j.refund_id IS NULL
     WHERE e.owner = ? AND j.created_at >= ? AND j.created_at < ? AND e.id > ?
     ORDER BY e.id LIMIT ?`,
    [accountId, range.from, range.to, afterId ?? '0', limit],
  );
  return rows.map((r: Row) => ({
    id: String(r.id),
    kind: r.kind,
    bucket: r.bucket,
    asset: r.asset,
    amount: BigInt(r.amount),
    fee: BigInt(r.fee),
    paymentId: r.payment_id,
    refundId: r.refund_id,
    merchantId: r.merchant_id,
    referenceId: r.reference_id,
    chainId: r.chain_id,
    txHash: r.tx_hash,
    blockNumber: r.block_number === null ? null : BigInt(r.block_number),
    createdAt: r.created_at,
  }));
}
