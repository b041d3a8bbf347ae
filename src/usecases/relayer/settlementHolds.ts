import { inTransaction, type Db } from '../../db/knex';
import { markSettlementHeld } from '../../db/payments';
import * as transfers from '../../db/settlementTransfersRepo';
import type { RelayerDeps } from './deps';

// A settlement transfer that failed (reverted on chain, or a simulation that says it would) is tried again,
// later each time (by default 5 s, then 10, 20, 40); the last allowed failure holds it until an operator
// retries it (`admin settlements`), and the paygate_settlements_held gauge counts it. A hold is declared only when no
// transaction of the settlement can still be mined, and a held settlement is never stored for sending
// (src/db/settlementTransfersRepo.ts, src/db/relayer/transactions.ts): nothing moves until the operator's retry. A revert moved nothing,
// so a retry cannot pay twice; the funds wait in the collector meanwhile. Holding it (so also an operator's
// hold) writes a payment.settlement_held event in the same transaction; a retry that pays writes payment.settled.

export async function settlementFailed(
  deps: Pick<RelayerDeps, 'log' | 'settlementRetry'>,
  db: Db,
  paymentId: string,
  reason: string,
  txHash?: string,
) {
  const r = await inTransaction(db, async (trx) => {
    const failed = await transfers.recordSettlementFailure(trx, paymentId, { reason, txHash }, deps.settlementRetry);
    if (failed?.newlyHeld) await markSettlementHeld(trx, paymentId);
    return failed;
  });
  if (!r) {
    deps.log.info(
      { paymentId, reason, txHash },
      'settlement attempt failed while another stands or before its turn (or it is settled): not counted',
    );
    return;
  }
  if (r.held)
    deps.log.error(
      { paymentId, reason, txHash, attempts: r.attempts },
      'settlement held after repeated failures: the merchant is unpaid until an operator retries it (admin settlements retry)',
    );
  else deps.log.warn({ paymentId, reason, txHash, attempts: r.attempts }, 'settlement failed; it will be tried again');
}

/** An operator holds a payment's settlement (`admin settlements hold`). False if it is settled or unknown. */
export function holdSettlement(db: Db, paymentId: string, reason: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const r = await transfers.holdSettlement(trx, paymentId, reason);
    if (r?.newlyHeld) await markSettlementHeld(trx, paymentId);
    return r !== undefined;
  });
}
