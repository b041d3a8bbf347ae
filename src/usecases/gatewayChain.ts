import type { Knex } from 'knex';
import type { ChainPort, Eip3009Submission } from '../domain/chain';
import type { TransferAuthorization } from '../domain/eip3009';
import * as repo from '../db/paymentsRepo';
import { findOption } from '../db/optionsRepo';

// What the chain worker does with a confirmed payment. The same code path serves every adapter: submit
// the stored authorization, then watch the transaction until it is confirmed or failed.

export class NotYetVisible extends Error {}

/** Submits a processing payment's authorization; null when there is nothing (any longer) to submit. */
export async function submitPayment(db: Knex, chain: ChainPort, paymentId: string): Promise<string | null> {
  const found = await repo.findPayment(db, paymentId);
  if (!found) return null;
  const p = found.payment;
  // The confirm that enqueued this may not have committed yet: try again shortly.
  if (p.status === 'requires_action') throw new NotYetVisible(paymentId);
  if (p.status !== 'processing' || !p.optionId) return null;
  const opt = await findOption(db, p.optionId);
  const sig = await db('payments').where({ id: paymentId }).first('signature');
  if (!opt || !sig?.signature) return null;
  const td = JSON.parse(opt.typedData) as TransferAuthorization;
  const s: Eip3009Submission = {
    paymentId, chainId: opt.chainId, token: td.domain.verifyingContract, ...td.message, signature: sig.signature,
  };
  return (await chain.submit(s)).txHash;
}

/** 'pending' means: ask again later. Final outcomes move the payment (once, whoever asks). */
export async function settleTransaction(db: Knex, chain: ChainPort, paymentId: string, txHash: string): Promise<'pending' | 'done'> {
  const c = await chain.confirmation(paymentId, txHash);
  if (c === 'pending') return 'pending';
  await repo.applyTransition(db, paymentId, c === 'confirmed' ? 'chain_confirmed' : 'chain_failed', { tx_hash: txHash });
  return 'done';
}

/** Processing payments that never reached the chain (a crash between confirm and enqueue). */
export async function strandedPayments(db: Knex, olderThanSeconds: number): Promise<string[]> {
  return db('payments as p')
    .leftJoin('chain_submissions as c', 'c.payment_id', 'p.id')
    .where('p.status', 'processing')
    .whereNull('c.payment_id')
    .andWhere('p.updated_at', '<', db.raw(`now() - make_interval(secs => ?)`, [olderThanSeconds]))
    .limit(100)
    .pluck('p.id');
}
