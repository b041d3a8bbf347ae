import type { Db } from '../../db/knex';
import type { ChainRefusal } from '../../domain/chain';
import * as payments from '../../db/payments';
import type { RelayerDeps } from './deps';

// What a relayer step ends a payment with, shared by the steps of tokens (paymentSteps.ts) and of the native coin
// (nativeWatch.ts).

/** The step found nothing to decide yet (a confirm not committed, a chain not at depth): tried again, backing off. */
export class NotYetVisible extends Error {}

export async function failPayment(deps: RelayerDeps, paymentId: string, code: ChainRefusal, reason: string, trx?: Db) {
  const done = await payments.applyTransition(trx ?? deps.db, paymentId, 'chain_failed', { failureCode: code });
  if (done) deps.log.warn({ paymentId, failureCode: code, reason }, 'payment failed on chain');
}
