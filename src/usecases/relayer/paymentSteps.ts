import { inTransaction, type Tx } from '../../db/knex';
import { getAddress, type Address, type Hex, type TransactionReceipt } from 'viem';
import { authorizationDeadline, type ChainCall, type EvmChain, type Simulation } from '../../chain/evm';
import type { Fees } from '../../domain/fees';
import { isFinal } from '../../chain/proofs';
import { ChainUnavailable, type ChainRefusal } from '../../domain/chain';
import { parseAccountId } from '../../domain/caip';
import { settlementSplit } from '../../domain/money';
import * as payments from '../../db/payments';
import * as relayer from '../../db/relayer';
import { holdSettlement, settlementInput } from '../../db/settlementTransfersRepo';
import { settlesOnSchedule } from '../../db/settlementBatchesRepo';
import { reserveAmount } from '../../db/ledger/reserves';
import { awaitingFunds, fundedRefundAsset, refundedTokens } from '../../db/refundsRepo';
import { refusalOfCall, submissionPlan, type SubmissionPlan } from './submissionPlan';
import { settlementFailed } from './settlementHolds';
import type { RelayerDeps } from './deps';
import * as ledger from '../ledger/records';
import { planTransfer, withHeadroom } from './transfer';
import { nativeQuoteOf } from '../../domain/nativeQuote';
import { watchNativePayment } from './nativeWatch';

export type { RelayerDeps } from './deps';
export { failPayment, NotYetVisible } from './stepOutcomes';
import { failPayment, NotYetVisible } from './stepOutcomes';

// What the relayer does with a confirmed payment, in three steps that each survive a crash:
//   submit:  simulate the authorization with the fees it will offer, sign it under a nonce from PostgreSQL, store,
//            then broadcast (a token that refuses for now is simulated again until the authorization's validBefore);
//   monitor: per chain, one process at a time (src/usecases/relayer/monitor.ts): receipts, confirmation depth
//            and the block re-checked (reorgs), re-broadcast of what the node lost, replacement of what is stuck
//            (src/usecases/relayer/fees.ts);
//   settle:  (collector mode) amount minus fee from the collector to the merchant's current destination, at once or,
//            for an account on a schedule, in its slot's batch (src/usecases/relayer/scheduledSettlements.ts).
// The payment moves only on final outcomes, each in the transaction that records the outcome.

/**
 * The token refuses the transfer for now (paused, or an account blacklisted): the submission is simulated again
 * later, with the step's backoff, for as long as the authorization is valid; the payment fails only after that.
 */
class RefusedForNow extends Error {}

/** Submits a processing payment's authorization; the transaction hash, or null when there is nothing to do. */
export async function submitPayment(deps: RelayerDeps, paymentId: string): Promise<string | null> {
  const { db, chains, log } = deps;
  const opt = await relayer.submissionInput(db, paymentId);
  if (!opt) return null;
  // The confirm that enqueued this may not have committed yet: try again shortly.
  if (opt.status === 'requires_action') throw new NotYetVisible(paymentId);
  if (opt.status !== 'processing' || !opt.chainId || !opt.typedData || !opt.signature) return null;
  const { signature } = opt;
  const chain = chains.get(opt.chainId);
  if (!chain) {
    log.error({ paymentId, chainId: opt.chainId }, 'a confirmed payment is on a chain this instance is not configured for');
    return null;
  }
  // The chain's own coin: the buyer's transaction paid; the step watches the chain decide (nativeWatch.ts).
  const quote = nativeQuoteOf(opt.typedData);
  if (quote) return watchNativePayment(deps, chain, paymentId, quote);
  const plan = submissionPlan(chain, paymentId, opt, signature as Hex);
  if (!chain.holds(plan.sender)) {
    log.error({ paymentId, relayer: plan.sender }, 'this process holds no key for the relayer that must submit; another process may');
    throw new ChainUnavailable(`no key for ${plan.sender}`);
  }
  if (opt.liveHash) return opt.liveHash;
  return sendPlan(deps, chain, paymentId, plan);
}

/** Simulates, stores and sends what `plan` says; the transaction hash, or null when there is nothing to do. */
async function sendPlan(deps: RelayerDeps, chain: EvmChain, paymentId: string, plan: SubmissionPlan): Promise<string | null> {
  const { db, log } = deps;
  const { purpose, sender, call } = plan;
  const fees = await chain.fees();
  // An ERC-6492 wallet without code yet: its deployment goes first, in the same commit under the nonce before; never
  // a call that would act with the relayer's authority (confirm refuses those; this holds for any stored before).
  const deployable = plan.deploy && !(await chain.hasCode(plan.deploy.wallet)) && !(await chain.isPrivilegedTarget(plan.deploy.call.to));
  const deploy = deployable ? plan.deploy!.call : null;
  const simulated: Simulation & { firstGas?: bigint } = deploy
    ? await chain.simulateAfter(sender, deploy, call, fees)
    : await chain.simulate(sender, call, fees);
  if (!simulated.ok) {
    // Another step of this payment (its queued job beside an inline run, or the reconciler's) may have stored
    // and sent the transaction since the read above: then its own transaction used the authorization, and the
    // payment follows that transaction, not this simulation.
    const sent = await relayer.liveTransaction(db, paymentId, purpose);
    if (sent) return sent.hash;
    const sim = await refusalOfCall(chain, call, simulated, { sender, fees });
    // Past its deadline a token says expired before it says used: its record says whether a copy paid in time.
    if (sim.refusal === 'authorization_used' || (sim.refusal === 'authorization_expired' && (await plan.use()).kind !== 'unused'))
      return usedElsewhere(deps, chain, paymentId, plan);
    const deadline = authorizationDeadline(call.data);
    if (sim.refusal === 'token_refused' && deadline !== null && (await chain.latestTime()) < deadline)
      throw new RefusedForNow(`the token refuses the transfer for now (${sim.reason}); simulated again until its deadline`);
    await failPayment(deps, paymentId, sim.refusal, sim.reason);
    return null;
  }
  const gasLimit = withHeadroom(simulated.gas);
  const tx = { chainId: chain.caip2, sender, purpose, paymentId, to: call.to, calldata: call.data, gasLimit, ...fees };
  const sub = { tx, call, fees, authorization: plan.authorization };
  const subs =
    deploy && simulated.firstGas !== undefined
      ? [deploySubmission(chain, paymentId, sender, deploy, simulated.firstGas, fees), sub]
      : [sub];
  const r = (await deps.submissions.submitAll(chain, sender, subs)).at(-1)!;
  if (r.kind === 'taken') {
    await failPayment(deps, paymentId, 'authorization_used', `authorization already submitted for ${r.owner}`);
    return null;
  }
  if (r.kind !== 'stored') return (await relayer.liveTransaction(db, paymentId, purpose))?.hash ?? null;
  log.info({ paymentId, chainId: chain.caip2, txHash: r.tx.hash, nonce: r.tx.nonce, sender }, 'authorization submitted');
  return r.tx.hash;
}

/** A wallet's deployment (ERC-6492), sent before the transfer: its outcome moves no payment, the transfer's does. */
function deploySubmission(chain: EvmChain, paymentId: string, sender: Address, call: ChainCall, gas: bigint, fees: Fees) {
  const gasLimit = withHeadroom(gas);
  return {
    tx: { chainId: chain.caip2, sender, purpose: 'deploy' as const, paymentId, to: call.to, calldata: call.data, gasLimit, ...fees },
    call,
    fees,
  };
}

/**
 * The authorization (or permit) was used by a transaction this relayer did not send (copied from the mempool and
 * outbid in direct mode, or a collector key used elsewhere). Its signature binds payer, payee, amount, validity and
 * nonce, so that transaction paid exactly this payment: once it is final, the payment succeeds with it. Only a
 * cancellation by the buyer (its own log, or a permit nonce used without this payment's transfer) fails the
 * payment; nothing is concluded before the chain says which.
 */
async function usedElsewhere(deps: RelayerDeps, chain: EvmChain, paymentId: string, plan: SubmissionPlan): Promise<string | null> {
  const use = await plan.use();
  if (use.kind === 'unused') throw new ChainUnavailable('the simulation said used, the chain says unused: asked again later');
  if (!(await isFinal(chain, use))) throw new NotYetVisible(paymentId);
  if (use.kind === 'cancelled') {
    await failPayment(deps, paymentId, 'authorization_used', `the buyer cancelled the authorization in ${use.hash}`);
    return null;
  }
  // Paid to a deposit address by a transaction that did not pass the tokens on: the deposit address's own
  // authorization, sent alone, takes them to the collector; the payment succeeds with that transaction.
  if (plan.onward && (await plan.onward.use()).kind === 'unused') {
    deps.log.warn({ paymentId, txHash: use.hash }, 'authorization used without its onward transfer; sending that transfer alone');
    return sendPlan(deps, chain, paymentId, plan.onward);
  }
  const done = await inTransaction(deps.db, async (trx) => {
    const moved = await payments.applyTransition(trx, paymentId, 'chain_confirmed', { txHash: use.hash });
    if (moved)
      await ledger.recordCollected(trx, paymentId, { transactionHash: use.hash, blockNumber: use.blockNumber }, null, deps.refundReserve);
    return moved;
  });
  if (!done) return null;
  await relayer.markOutbid(deps.db, paymentId);
  deps.log.warn(
    { paymentId, txHash: use.hash },
    'authorization used by a transaction the relayer did not send; the payment succeeds with it',
  );
  if (plan.purpose === 'collect') await afterCollected(deps, paymentId);
  return use.hash;
}

/**
 * A collect or direct transaction of the relayer's is final and succeeded (in the monitor's database transaction): the
 * payment succeeds with it, and in collector mode the ledger records what was collected.
 */
export async function submissionConfirmed(
  deps: RelayerDeps,
  trx: Tx,
  tx: relayer.ChainTx & { paymentId: string },
  receipt: TransactionReceipt,
) {
  if (await payments.applyTransition(trx, tx.paymentId, 'chain_confirmed', { txHash: receipt.transactionHash }))
    await ledger.recordCollected(trx, tx.paymentId, receipt, tx, deps.refundReserve);
}

/**
 * A collect is final and its payment succeeded (by the relayer's transaction or another's): its settlement starts, and
 * the account's refunds waiting for funds are looked at again (its balance at the collector grew).
 */
export async function afterCollected(deps: RelayerDeps, paymentId: string): Promise<void> {
  await deps.startSettle(paymentId);
  for (const id of await awaitingFunds(deps.db, paymentId)) await deps.startRefund(id);
}

/** Collector mode: sends amount minus fee to the merchant's destination as it is now. */
export async function settlePayment(deps: RelayerDeps, paymentId: string): Promise<string | null> {
  const { db, chains, log } = deps;
  const found = await payments.findPayment(db, paymentId);
  if (!found || !found.asset) return null;
  const p = found.payment;
  if (p.status !== 'succeeded' || p.settledAt || p.tokenAmount === null) return null;
  if (await fundedRefundAsset(db, paymentId)) {
    // A refund's funding: its tokens are the account's, to send back to a buyer, not the merchant's.
    await holdSettlement(db, paymentId, "a refund's funding: credited to the account, not settled");
    return null;
  }
  // An account on a schedule: the payment goes in its slot's batch (src/usecases/relayer/scheduledSettlements.ts).
  if (await settlesOnSchedule(db, paymentId)) return null;
  const input = await settlementInput(db, p, found.asset.id);
  const { destination } = input;
  // A collect transaction of the relayer's is confirmed (or there is none: its authorization was used by another).
  if (!input.collected || !input.collector || input.settleLive || input.held || input.waiting) return null;
  if (input.collectStatus !== null && input.collectStatus !== 'confirmed') return null;
  const chain = chains.get(found.asset.chainId);
  if (!chain) return null;
  if (!destination) {
    log.warn({ paymentId, asset: found.asset.id }, 'settlement held: the merchant has no destination for this asset any more');
    return null;
  }
  // The chain's own coin was priced from a feed: its fixed fee converts at the payment's own rate (money.ts).
  const priced = found.asset.transferMethod === 'native' ? p.amountMinor : undefined;
  const { fee, amount: share } = settlementSplit(p.tokenAmount, p.currency, found.asset.decimals, input, priced);
  // What was refunded (or is on its way back) before the settlement left the collector is not the merchant's.
  const refunded = await refundedTokens(db, paymentId);
  // The refund reserve's part of the share stays at the collector until its window ends; its release settles it then
  // (src/usecases/relayer/reserveReleases.ts), the payment too when nothing else was left to send now.
  const reserved = await reserveAmount(db, paymentId);
  const amount = share - reserved - refunded;
  if (reserved > 0n && amount <= 0n) return null;
  if (refunded > 0n && amount <= 0n) {
    await holdSettlement(db, paymentId, 'refunded: nothing left to settle');
    return null;
  }
  if (amount <= 0n) {
    log.warn({ paymentId }, 'settlement held: the fee takes the whole amount');
    return null;
  }
  const sender = getAddress(input.collector);
  // Collected since the ledger exists: the merchant's share comes from the account's available balance at the
  // collector (a refund may have taken it first). SHIM(ledger-31): payments collected before are settled as before.
  const asset = found.asset.id;
  const reserve = (await ledger.collectionRecorded(db, paymentId))
    ? { kind: 'settle_reserved' as const, accountId: p.accountId, asset, amount }
    : undefined;
  const shareTaken = async () => Boolean(reserve) && (await ledger.spendableFor(db, p.accountId, asset, paymentId, sender)) < amount;
  // A refund of this payment was reserved since its amount was read: the next attempt sends what refunds leave.
  const waits = () => new Error("settlement waits: a refund took part of the payment's share since its amount was read");
  if (await shareTaken()) throw waits();
  const to = parseAccountId(destination).address;
  const t = await planTransfer(chain, { sender, asset, to, amount, purpose: 'settle', paymentId });
  // Short on chain because such a refund went out since the check above: not a failed attempt.
  if (!t.ok && t.sim.refusal === 'insufficient_funds' && (await shareTaken())) throw waits();
  if (!t.ok) {
    await settlementFailed(deps, db, paymentId, `simulation:${t.sim.refusal}`);
    return null;
  }
  const r = await deps.submissions.submit(chain, sender, { ...t, plan: { fee, amount, destination }, reserve });
  if (r.kind === 'held')
    log.warn({ paymentId }, 'settlement not sent: it was held, or another attempt failed, while this one was prepared');
  if (r.kind !== 'stored') return null;
  log.info({ paymentId, txHash: r.tx.hash, amount: amount.toString(), fee: fee.toString() }, 'settlement submitted');
  return r.tx.hash;
}

/**
 * A settlement transaction is final (in the monitor's database transaction): sent, the payment is settled with it and
 * the reservation leaves for the merchant; reverted or dropped, the reservation goes back to available. A revert
 * moved nothing: it counts as a failed attempt (`refusal`: why the chain refuses the transfer now), tried again up to
 * its bound (src/usecases/relayer/settlementHolds.ts); a dropped one is sent again (its nonce went to another).
 */
export async function settleOutcome(
  deps: Pick<RelayerDeps, 'log' | 'settlementRetry'>,
  trx: Tx,
  tx: relayer.ChainTx & { paymentId: string },
  outcome: { sent: TransactionReceipt } | { reverted: TransactionReceipt; refusal: ChainRefusal } | { dropped: true },
): Promise<void> {
  if ('sent' in outcome) {
    await payments.markSettled(trx, tx.paymentId, outcome.sent.transactionHash);
    await ledger.recordTransferOutcome(trx, 'settle', tx, { sent: outcome.sent });
    return;
  }
  if (!('reverted' in outcome)) return ledger.recordTransferOutcome(trx, 'settle', tx, { released: null });
  await ledger.recordTransferOutcome(trx, 'settle', tx, { released: outcome.reverted });
  await settlementFailed(deps, trx, tx.paymentId, `reverted:${outcome.refusal}`, outcome.reverted.transactionHash);
}
