import type { Db } from '../db/knex';
import type { Logger } from '../logger';
import * as transfers from '../db/settlementTransfersRepo';

// A settlement transfer that failed (reverted on chain, or a simulation that says it would) is tried again,
// 5 s later, then 10, 20, 40; the fifth failure holds it until an operator retries it (`admin settlements`);
// the paygate_settlements_held gauge counts the held ones.
// A revert moved nothing, so a retry cannot pay twice; the funds wait in the collector meanwhile.

const SETTLEMENT_RETRY = { maxAttempts: 5, baseS: 5 };

export async function settlementFailed(deps: { db: Db; log: Logger }, db: Db, paymentId: string, reason: string, txHash?: string) {
  const r = await transfers.recordSettlementFailure(db, paymentId, reason, SETTLEMENT_RETRY);
  if (!r) return;
  if (r.held)
    deps.log.error(
      { paymentId, reason, txHash, attempts: r.attempts },
      'settlement held after repeated failures: the merchant is unpaid until an operator retries it (admin settlements retry)',
    );
  else deps.log.warn({ paymentId, reason, txHash, attempts: r.attempts }, 'settlement failed; it will be tried again');
}
