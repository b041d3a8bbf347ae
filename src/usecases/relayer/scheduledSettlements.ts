import { getAddress } from 'viem';
import type { Tx } from '../../db/knex';
import { parseAccountId } from '../../domain/caip';
import * as payments from '../../db/payments';
import type { ChainTx } from '../../db/relayer';
import * as batches from '../../db/settlementBatchesRepo';
import { holdSettlement } from '../../db/settlementTransfersRepo';
import { InsufficientBalance, recordTransferOutcome } from '../ledger/records';
import type { RelayerDeps } from './paymentSteps';
import { BATCH, isCallOf, planTransfer } from './transfer';
import { GuardRefused } from './submissions';
import { releaseOutcome } from './reserveReleases';
import { settlementFailed } from './settlementHolds';

interface Mined {
  transactionHash: string;
  blockNumber: bigint;
}

// Settlement on a schedule (docs/ledger.md): at each slot of a scheduled account, one transfer per merchant, asset and
// collector sends the shares of the payments collected before the slot began, through the relayer like any of its
// transfers (simulated, stored signed under a nonce from PostgreSQL with its batch and the ledger's reservation, then
// broadcast; the monitor follows it through reorgs, replacements and a lost nonce). Every process's sweeper ticks it;
// the batch's unique key lets one of them store a slot's batch, never two. Its outcome moves all its payments at once.

/** Stores and sends the batches due now; the hashes of those this call stored. */
export async function settleOnSchedule(deps: RelayerDeps, unitMs: number): Promise<string[]> {
  const sent: string[] = [];
  for (const b of await batches.dueBatches(deps.db, unitMs)) {
    try {
      const hash = await sendBatch(deps, b, unitMs);
      if (hash) sent.push(hash);
    } catch (e) {
      const waits = e instanceof GuardRefused || e instanceof InsufficientBalance;
      deps.log[waits ? 'info' : 'warn'](
        { merchantId: b.merchantId, asset: b.asset, err: (e as Error).message },
        'scheduled settlement not sent; tried again at the next tick',
      );
    }
  }
  return sent;
}

async function sendBatch(deps: RelayerDeps, due: batches.DueBatch, unitMs: number): Promise<string | null> {
  const { db, chains, log } = deps;
  const chain = chains.get(due.chainId);
  const sender = getAddress(due.collector);
  if (!chain || !chain.holds(sender)) return null; // another process holds the key
  // Refunded whole: nothing is left to settle (as for a settlement of its own, src/usecases/relayer/paymentSteps.ts).
  for (const m of due.members.filter((x) => x.amount <= 0n && x.refunded > 0n))
    await holdSettlement(db, m.paymentId, 'refunded: nothing left to settle');
  const b = { ...due, members: due.members.filter((m) => m.amount > 0n) };
  const amount = b.members.reduce((s, m) => s + m.amount, 0n);
  if (amount <= 0n) return null;
  const to = parseAccountId(b.destination).address;
  const t = await planTransfer(chain, { sender, asset: b.asset, to, amount, ...BATCH });
  if (!t.ok) {
    // Counted per payment, as for a settlement of its own: each waits before its next batch, and is held at the bound.
    for (const m of b.members) await settlementFailed(deps, db, m.paymentId, `simulation:${t.sim.refusal}`);
    return null;
  }
  const { call } = t;
  const r = await deps.submissions.submit(chain, sender, {
    ...t,
    reserve: {
      kind: 'settle_reserved',
      accountId: b.accountId,
      asset: b.asset,
      amount,
      shares: b.members.map((m) => ({ paymentId: m.paymentId, amount: m.amount })),
    },
    guard: async (trx, stored) => {
      const mine = stored.find((t) => t.purpose === 'settle_batch' && isCallOf(t, call));
      const changed = mine ? await batches.storeBatch(trx, mine.id, b, unitMs) : null;
      if (changed) throw new GuardRefused(`payment ${changed} changed since its batch was read: the batch waits for the next tick`);
    },
  });
  if (r.kind !== 'stored') return null;
  log.info(
    { merchantId: b.merchantId, asset: b.asset, payments: b.members.length, amount: amount.toString(), txHash: r.tx.hash },
    'scheduled settlement submitted',
  );
  return r.tx.hash;
}

/**
 * A batch's transaction is final (in the monitor's database transaction): sent, each of its payments is settled with
 * it (payment.settled) and the reservation leaves; reverted or dropped, the reservation goes back to available and
 * the payments wait for a later slot (a revert counts as a failed attempt of each, as for a settlement of its own).
 */
export async function batchOutcome(
  deps: Pick<RelayerDeps, 'log' | 'settlementRetry'>,
  trx: Tx,
  tx: ChainTx,
  outcome: { sent: Mined } | { reverted: Mined } | { dropped: true },
): Promise<void> {
  if (await releaseOutcome(trx, tx, outcome)) return; // a release of the refund reserve (src/usecases/relayer/reserveReleases.ts)
  const members = await batches.batchPayments(trx, tx.id);
  if ('sent' in outcome) {
    for (const id of members) await payments.markSettled(trx, id, outcome.sent.transactionHash);
    await recordTransferOutcome(trx, 'settle', tx, { sent: outcome.sent }, members);
    return;
  }
  await recordTransferOutcome(trx, 'settle', tx, { released: 'reverted' in outcome ? outcome.reverted : null }, members);
  await batches.releaseBatch(trx, tx.id);
  if ('reverted' in outcome)
    for (const id of members) await settlementFailed(deps, trx, id, 'reverted:batch', outcome.reverted.transactionHash);
}
