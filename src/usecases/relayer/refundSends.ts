import { getAddress } from 'viem';
import { inTransaction, type Db, type Tx } from '../../db/knex';
import { writeRefundEvent } from '../../db/refundEvents';
import * as refunds from '../../db/refundsRepo';
import { findPayment, unmarkRefunded } from '../../db/payments';
import type { ChainTx } from '../../db/relayer';
import { settlementInput } from '../../db/settlementTransfersRepo';
import { refundableByHolder } from '../../db/ledger';
import { InsufficientBalance, recordTransferOutcome, releaseRefundFunding } from '../ledger/records';
import { fundShortRefund } from '../payments/refunds';
import type { RelayerDeps } from './paymentSteps';
import { planTransfer } from './transfer';
import { refusalOfCall } from './submissionPlan';
import type { RefundRow } from '../../domain/refund';

// The relayer's refund step: a payment's waiting refunds are sent one at a time (one live refund transaction per
// payment, like every purpose), from the collector that received the payment, to the address that paid. What it
// sends is reserved from the account's available balance at that collector as the transaction is stored signed
// (under the collector's nonce lock), so a refund never spends another account's money: short, it waits in
// `requires_funding`. The transaction then has the relayer's guarantees (stored before broadcast, one nonce from
// PostgreSQL, re-broadcast, reorgs and replacements handled by the monitor). Its outcome: src/usecases/relayer/outcomes.ts.

/** Sends the payment's next waiting refund; the transaction hash, or null when there is nothing to send now. */
export async function sendRefund(deps: RelayerDeps, paymentId: string): Promise<string | null> {
  const { db, chains, log } = deps;
  const { refund, live } = await refunds.nextRefund(db, paymentId);
  if (live || !refund) return null;
  const found = await findPayment(db, paymentId);
  if (!found?.asset) return null;
  const { collected, collector } = await settlementInput(db, found.payment, found.asset.id);
  const chain = chains.get(found.asset.chainId);
  if (!chain) return null;
  // From the collector that received the payment when the account's balance there covers it, else from another of
  // this chain's keys where it does; in direct mode (nothing collected) or short everywhere, funding is needed first.
  const preferred = collected && collector ? getAddress(collector) : null;
  const fitting = async (d: Db) =>
    (await refundableByHolder(d, refund.accountId, refund.tokenAsset, paymentId, { refundId: refund.id }))
      .filter((h) => h.amount >= refund.tokenAmount && chain.holds(h.holder))
      .map((h) => getAddress(h.holder));
  const covered = async (trx: Tx) => (await fitting(trx)).length > 0;
  const fits = await fitting(db);
  const holder = fits.find((h) => h === preferred) ?? fits[0] ?? null;
  if (!holder) return waitForFunds(deps, refund, covered);
  // A token's transfer(), or the chain's own coin sent back as the transaction's value (transfer.ts transferCallOf).
  const t = await planTransfer(chain, {
    sender: holder,
    asset: refund.tokenAsset,
    to: refund.recipient,
    amount: refund.tokenAmount,
    purpose: 'refund',
    paymentId,
  });
  if (!t.ok) {
    const { refusal } = await refusalOfCall(chain, t.call, t.sim);
    // Short on chain at a holder the ledger said covers it: a settlement or another refund reserved and sent from it
    // since this step read the balance. The step runs again on a fresh reading (which may wait for funds), not failed.
    if (refusal === 'insufficient_funds' && !(await fitting(db)).includes(holder)) {
      log.info({ paymentId, refundId: refund.id, holder }, 'refund no longer covered where it was to be sent: decided again');
      await deps.startRefund(paymentId);
      return null;
    }
    const failed = await inTransaction(db, (trx) => failRefund(trx, refund, { failureCode: refusal }));
    if (failed) log.warn({ paymentId, refundId: refund.id, refusal }, 'refund refused by the token before it was sent');
    await deps.startRefund(paymentId);
    return null;
  }
  try {
    const r = await deps.submissions.submit(chain, holder, {
      ...t,
      reserve: {
        kind: 'refund_reserved',
        accountId: refund.accountId,
        asset: refund.tokenAsset,
        amount: refund.tokenAmount,
        refundId: refund.id,
      },
      guard: async (trx, stored) => {
        const mine = stored.find((t) => t.paymentId === paymentId && t.purpose === 'refund');
        if (mine) await refunds.attachTx(trx, refund.id, mine.id);
      },
    });
    if (r.kind !== 'stored') return null;
    log.info({ paymentId, refundId: refund.id, txHash: r.tx.hash, amount: refund.tokenAmount.toString() }, 'refund submitted');
    return r.tx.hash;
  } catch (e) {
    if (!(e instanceof InsufficientBalance)) throw e;
    return waitForFunds(deps, refund, covered);
  }
}

/**
 * Short at every collector as this step read it: the refund waits in `requires_funding`, with a funding payment of what
 * it lacks unless one can still be paid (src/usecases/payments/refunds.ts). Decided again under the refund's row lock (which
 * storing its transaction takes too), because another step of the same payment may have acted since the read: one
 * that found a funding credited after it (each collect starts one) and stored the refund's transaction, or is about to
 * (`covered` reads the balance again). Then the refund is left as that step made it: never back to
 * `requires_funding` with its transaction on the way, and no funding payment asked for money it does not lack.
 */
export async function waitForFunds(
  deps: Pick<RelayerDeps, 'db' | 'log' | 'fundingMaxPayments'>,
  refund: RefundRow,
  covered: (trx: Tx) => Promise<boolean>,
): Promise<null> {
  const funding = await inTransaction(deps.db, async (trx) => {
    if (!(await refunds.waitingRefund(trx, refund.id))) return null; // final meanwhile
    if ((await refunds.refundInFlight(trx, refund.paymentId)) || (await covered(trx))) return null;
    await refunds.waitForFunding(trx, refund.id);
    const made = await fundShortRefund(trx, refund, deps.fundingMaxPayments);
    if (made === 'exhausted') await failRefund(trx, refund, { failureCode: 'funding_expired' });
    return made;
  });
  if (funding === 'exhausted')
    deps.log.warn(
      { paymentId: refund.paymentId, refundId: refund.id, fundingPayments: deps.fundingMaxPayments },
      'refund failed: its funding payments all expired unpaid',
    );
  else if (funding)
    deps.log.info({ paymentId: refund.paymentId, refundId: refund.id, funding }, 'refund short of funds: a funding payment made');
  return null;
}

/**
 * A refund transaction is final (in the monitor's database transaction): sent, the refund succeeded and its
 * reservation left for the buyer; reverted or dropped, the reservation goes back to available and the refund fails
 * (a dropped one, whose nonce another transaction took, is sent again instead).
 */
export async function refundOutcome(
  trx: Tx,
  tx: ChainTx,
  outcome: { sent: { transactionHash: string; blockNumber: bigint } } | { reverted: { transactionHash: string } } | { dropped: true },
): Promise<void> {
  const refund = await refunds.refundOfTx(trx, tx.id);
  if ('sent' in outcome) {
    await recordTransferOutcome(trx, 'refund', tx, { sent: outcome.sent });
    if (refund && (await refunds.settleRefund(trx, refund.id, 'succeeded', { txHash: outcome.sent.transactionHash }))) {
      await releaseRefundFunding(trx, refund);
      await writeRefundEvent(trx, refund.id, 'refund.succeeded');
    }
    return;
  }
  await recordTransferOutcome(trx, 'refund', tx, { released: null });
  if (!refund || !('reverted' in outcome)) return;
  const { transactionHash } = outcome.reverted;
  await failRefund(trx, refund, { failureCode: 'transaction_reverted', txHash: transactionHash });
}

/**
 * The refund fails (nothing moved): its funding goes back to the account, and a payment it had completed is no
 * longer refunded (refundedAt cleared; `refund.failed` tells). False when it was final already.
 */
async function failRefund(trx: Tx, refund: RefundRow, changes: { failureCode: string; txHash?: string }): Promise<boolean> {
  if (!(await refunds.settleRefund(trx, refund.id, 'failed', changes))) return false;
  await releaseRefundFunding(trx, refund);
  await unmarkRefunded(trx, refund.paymentId);
  await writeRefundEvent(trx, refund.id, 'refund.failed');
  return true;
}
