import type { Knex } from 'knex';

// Settlements a soak saw held, each with its failed attempts (reason, transaction, time: attempts at the same moment
// were steps running at once) and its settlement transactions, so that a hold can be diagnosed from the summary. The
// soak never retries a settlement as an operator would, so a held settlement that was then settled is a violation:
// something moved money past a hold.

type Row = Record<string, any>;

export async function settlementHolds(db: Knex) {
  const held: Row[] = await db('payments as p')
    .whereExists(db('payment_events as e').whereRaw('e.payment_id = p.id').where('e.type', 'payment.settlement_held'))
    .select('p.id', 'p.settled_at', 'p.settlement_tx_hash', 'p.settlement_hold_reason');
  const holds = [];
  for (const p of held) {
    const attempts = await db('settlement_failures')
      .where({ payment_id: p.id })
      .orderBy('id')
      .select('attempt', 'reason', 'tx_hash', 'held', 'failed_at');
    const settles = await db('chain_transactions')
      .where({ payment_id: p.id, purpose: 'settle' })
      .orderBy('id')
      .select('tx_hash', 'status', 'nonce', 'block_number', 'signed_at', 'finished_at');
    holds.push({ paymentId: p.id, reason: p.settlement_hold_reason, settledAt: p.settled_at, attempts, settles });
  }
  const violations = holds
    .filter((h) => h.settledAt)
    .map((h) => `settlement of ${h.paymentId} was held and then settled without an operator's retry: ${JSON.stringify(h)}`);
  return { holds, violations };
}
