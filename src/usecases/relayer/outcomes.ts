import type { TransactionReceipt } from 'viem';
import type { EvmChain } from '../../chain/evm';
import type { Tx } from '../../db/knex';
import * as relayer from '../../db/relayer';
import type { ChainRefusal } from '../../domain/chain';
import type { TxPurpose } from '../../domain/chainTx';
import { afterCollected, settleOutcome, submissionConfirmed, type RelayerDeps } from './paymentSteps';
import { refundOutcome } from './refundSends';
import { batchOutcome } from './scheduledSettlements';
import { refusalNow } from './submissionPlan';
import { submissionReverted } from './submissionRetry';

// What a final outcome of each purpose's transaction does : one entry per purpose, so that a new
// purpose cannot be added without saying what its confirmation, revert and drop do. The monitor
// (src/usecases/relayer/monitor.ts) finds the outcome and runs the entry in the database transaction that records it,
// then what follows once that transaction committed. The entries call the functions beside the steps that send each
// purpose: src/usecases/relayer/paymentSteps.ts (collect, direct, deploy, settle), submissionRetry.ts (a reverted
// collect or direct), refundSends.ts (refund), scheduledSettlements.ts and reserveReleases.ts (settle_batch),
// retirement.ts (sweep). Only a sweep and a settle_batch have no payment (db/schema.sql's chain_transactions_purpose_check).

type ChainTx = relayer.ChainTx;

/** What a final revert does, decided before the database transaction that records it (it may ask the chain). */
export interface Reverted {
  /** Who the revert is charged to (a collect or direct transaction's: src/usecases/relayer/revertCause.ts). */
  cause: relayer.RevertCause | undefined;
  /** Whether that transaction journals the gas it paid (before `record`). */
  gas: boolean;
  /** In that transaction, after the chain transaction is marked reverted (and its gas journaled). */
  record(trx: Tx): Promise<void>;
  /** Once that transaction committed, when it was this pass that marked the chain transaction reverted. */
  after(): Promise<void>;
}

export interface PurposeEntry {
  /**
   * Mined and succeeded, final: in the database transaction that marks it confirmed (with others of the same pass,
   * one after another), after the gas of all of them is journaled.
   */
  confirmed(deps: RelayerDeps, trx: Tx, tx: ChainTx, receipt: TransactionReceipt): Promise<void>;
  /** Once that transaction committed and the confirmation was logged. */
  afterConfirmed(deps: RelayerDeps, tx: ChainTx): Promise<void>;
  /** Reverted, final. */
  reverted(deps: RelayerDeps, chain: EvmChain, tx: ChainTx, receipt: TransactionReceipt): Promise<Reverted>;
  /**
   * Its nonce went to a transaction the relayer did not sign, final (it can never be mined): in the database
   * transaction that marks it dropped, before its pending collect journals are reversed (as every purpose's are).
   */
  dropped(deps: RelayerDeps, trx: Tx, tx: ChainTx): Promise<void>;
  /** Once that transaction committed, the key's nonce resynced and the drop logged: its step runs again, if any. */
  afterDropped(deps: RelayerDeps, tx: ChainTx): Promise<void>;
}

const nothing = async () => {};

/** A revert that records nothing but itself (and the gas it paid, when `gas`), then `after`. */
const bare = (gas: boolean, after: () => Promise<void> = nothing): Reverted => ({ cause: undefined, gas, record: nothing, after });

/**
 * The reverted transfer of a payment: a settlement or a refund. Moved nothing; not charged to any budget of reverts.
 * Why the chain refuses it now is asked first (the same call simulated again): a settlement's failed attempt names it.
 */
async function revertedTransfer(
  chain: EvmChain,
  tx: ChainTx,
  then: (tx: ChainTx & { paymentId: string }, refusal: ChainRefusal) => Pick<Reverted, 'record' | 'after'>,
): Promise<Reverted> {
  if (!relayer.ofPayment(tx)) return bare(true);
  const refusal = await refusalNow(chain, tx);
  return { cause: undefined, gas: true, ...then(tx, refusal) };
}

/** A collect or direct transaction: it pays the payment with the buyer's authorization (or permit). */
const submission = (after: PurposeEntry['afterConfirmed']): PurposeEntry => ({
  confirmed: (deps, trx, tx, receipt) => (relayer.ofPayment(tx) ? submissionConfirmed(deps, trx, tx, receipt) : nothing()),
  afterConfirmed: after,
  reverted: async (deps, chain, tx, receipt) =>
    relayer.ofPayment(tx) ? { gas: true, ...(await submissionReverted(deps, chain, tx, receipt)) } : bare(true),
  dropped: nothing,
  afterDropped: (deps, tx) => (relayer.ofPayment(tx) ? deps.startSubmit(tx.paymentId) : nothing()),
});

export const OUTCOMES: Record<TxPurpose, PurposeEntry> = {
  // Collector mode: once it succeeded, its settlement starts and the refunds waiting for funds are looked at again.
  collect: submission((deps, tx) => (relayer.ofPayment(tx) ? afterCollected(deps, tx.paymentId) : nothing())),
  direct: submission(nothing),
  // An ERC-6492 buyer wallet's deployment, before its collect or direct: it moves no payment, the transfer after it
  // decides. Reverted, the wallet was deployed meanwhile by another transaction (then the transfer succeeds), or not
  // (then the transfer reverts too, and its revert decides as any other's); dropped, the submit step runs again.
  deploy: {
    confirmed: nothing,
    afterConfirmed: nothing,
    // Its gas is not journaled (the payment's transfer's is).
    reverted: async (deps, _chain, tx, receipt) =>
      bare(false, async () =>
        deps.log.warn({ paymentId: tx.paymentId, txHash: receipt.transactionHash }, "a buyer wallet's deployment reverted"),
      ),
    dropped: nothing,
    afterDropped: (deps, tx) => (relayer.ofPayment(tx) ? deps.startSubmit(tx.paymentId) : nothing()),
  },
  settle: {
    confirmed: (deps, trx, tx, receipt) => (relayer.ofPayment(tx) ? settleOutcome(deps, trx, tx, { sent: receipt }) : nothing()),
    afterConfirmed: nothing,
    reverted: (deps, chain, tx, receipt) =>
      revertedTransfer(chain, tx, (p, refusal) => ({
        record: (trx) => settleOutcome(deps, trx, p, { reverted: receipt, refusal }),
        after: nothing,
      })),
    dropped: (deps, trx, tx) => (relayer.ofPayment(tx) ? settleOutcome(deps, trx, tx, { dropped: true }) : nothing()),
    afterDropped: (deps, tx) => (relayer.ofPayment(tx) ? deps.startSettle(tx.paymentId) : nothing()),
  },
  // Whatever the outcome, the payment's next refund is sent once it is final (a dropped one is sent again).
  refund: {
    confirmed: (_deps, trx, tx, receipt) => (relayer.ofPayment(tx) ? refundOutcome(trx, tx, { sent: receipt }) : nothing()),
    afterConfirmed: (deps, tx) => (relayer.ofPayment(tx) ? deps.startRefund(tx.paymentId) : nothing()),
    reverted: (deps, chain, tx, receipt) =>
      revertedTransfer(chain, tx, (p) => ({
        record: (trx) => refundOutcome(trx, p, { reverted: receipt }),
        after: () => deps.startRefund(p.paymentId),
      })),
    dropped: (_deps, trx, tx) => refundOutcome(trx, tx, { dropped: true }),
    afterDropped: (deps, tx) => (relayer.ofPayment(tx) ? deps.startRefund(tx.paymentId) : nothing()),
  },
  // A scheduled settlement of several payments, or a release of the refund reserve: its outcome moves all its payments.
  settle_batch: {
    confirmed: (deps, trx, tx, receipt) => batchOutcome(deps, trx, tx, { sent: receipt }),
    afterConfirmed: nothing,
    reverted: async (deps, _chain, tx, receipt) => ({
      cause: undefined,
      gas: true,
      record: (trx) => batchOutcome(deps, trx, tx, { reverted: receipt }),
      after: async () =>
        deps.log.warn({ txHash: receipt.transactionHash }, 'a scheduled settlement reverted: its payments wait for a later slot'),
    }),
    dropped: (deps, trx, tx) => batchOutcome(deps, trx, tx, { dropped: true }),
    afterDropped: nothing,
  },
  // A retired key's own funds moved out (`admin relayer sweep`): reverted or dropped, it moved nothing and the operator
  // sweeps again. Its revert's gas is not journaled.
  sweep: {
    confirmed: nothing,
    afterConfirmed: nothing,
    reverted: async (deps, _chain, tx, receipt) =>
      bare(false, async () =>
        deps.log.error({ sender: tx.sender, txHash: receipt.transactionHash }, 'sweep reverted: nothing moved (admin relayer sweep again)'),
      ),
    dropped: nothing,
    afterDropped: nothing,
  },
};
