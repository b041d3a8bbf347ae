import type { Hex, TransactionReceipt } from 'viem';
import { authorizationDeadline, type EvmChain } from '../../chain/evm';
import type { ChainRefusal } from '../../domain/chain';
import type { Tx } from '../../db/knex';
import * as relayer from '../../db/relayer';
import { revertedSubmissions } from '../../db/revertsRepo';
import * as ledger from '../ledger/records';
import { failPayment, type RelayerDeps } from './paymentSteps';
import { revertCauseOf } from './revertCause';
import { refusalNow, submissionPlan } from './submissionPlan';

// A collect or direct transaction that reverted at depth moved nothing: the buyer signed and was not charged. When
// the revert was passing (a token paused for the block that mined it), the authorization can still pay: so before
// the payment fails, the chain is asked whether the authorization (or Permit2 permit) is still unused and within its
// deadline, and if so the payment stays processing and the submit step runs again after a backoff
// (src/usecases/relayer/paymentSteps.ts): it simulates again, submits under a new nonce when the simulation passes, waits while
// the token refuses for now, and fails with the simulation's precise code when it refuses for good. Each submission
// that reverts is a row the revert budget counts unless the token caused it (src/usecases/gateway/revertBudget.ts); the
// SUBMIT_MAX_ATTEMPTS-th fails the payment transaction_reverted. One at a time: the next is signed only once this one
// is final (reverted).

/** What follows a reverted submission: submit again later, its authorization's use found on chain, or the payment fails. */
export type AfterRevert =
  { kind: 'retry'; attempt: number; delayMs: number } | { kind: 'elsewhere' } | { kind: 'fail'; code: ChainRefusal };

/** Refusals that may pass on a later try: a revert the simulation no longer sees, or a token that refuses for now. */
const PASSING: ChainRefusal[] = ['transaction_reverted', 'token_refused'];

/**
 * Decides what follows the reverted submission `tx` of a payment, given why the chain refuses its call now
 * (`refusal`: transaction_reverted when the same call simulates without a revert).
 */
async function afterRevert(
  deps: RelayerDeps,
  chain: EvmChain,
  tx: relayer.ChainTx & { paymentId: string },
  refusal: ChainRefusal,
): Promise<AfterRevert> {
  if (refusal === 'authorization_used') return { kind: 'elsewhere' };
  if (refusal === 'authorization_expired' && (await authorizationTaken(deps, chain, tx.paymentId))) return { kind: 'elsewhere' };
  if (!PASSING.includes(refusal)) return { kind: 'fail', code: refusal };
  const attempt = (await revertedSubmissions(deps.db, tx.paymentId)) + 1; // this one is not final yet
  if (attempt >= deps.submitRetry.maxAttempts) return { kind: 'fail', code: 'transaction_reverted' };
  const deadline = authorizationDeadline(tx.calldata);
  if (deadline === null || (await chain.latestTime()) >= deadline) return { kind: 'fail', code: refusal };
  const opt = await relayer.submissionInput(deps.db, tx.paymentId);
  if (!opt?.typedData || !opt.signature || opt.status !== 'processing') return { kind: 'fail', code: refusal };
  const use = await submissionPlan(chain, tx.paymentId, opt, opt.signature as Hex).use();
  // A token that refuses the call hides whether the authorization is used: the chain's own record says.
  if (use.kind !== 'unused') return { kind: 'elsewhere' };
  return { kind: 'retry', attempt, delayMs: deps.submitRetry.baseMs * 2 ** (attempt - 1) };
}

/**
 * A collect or direct transaction reverted at depth (src/usecases/relayer/outcomes.ts): what follows it and who it is
 * charged to, asked of the chain before the monitor's database transaction records the revert. In that transaction
 * (`record`) its pending journals are reversed and, unless it is submitted again or its authorization was used by
 * another transaction, the payment fails; once committed (`after`), the submit step runs again: at once when another
 * transaction used the authorization (the submit step finds it on the token and the payment follows it,
 * src/usecases/relayer/paymentSteps.ts, usedElsewhere), after a backoff when it was unused and valid.
 */
export async function submissionReverted(
  deps: RelayerDeps,
  chain: EvmChain,
  tx: relayer.ChainTx & { paymentId: string },
  receipt: TransactionReceipt,
) {
  const refusal = await refusalNow(chain, tx);
  const next = await afterRevert(deps, chain, tx, refusal);
  // Charged to the payer's budget of reverts unless the chain proves the token or congestion caused it.
  const cause = await revertCauseOf(chain, tx, receipt);
  return {
    cause,
    record: async (trx: Tx) => {
      await ledger.recordCollectUnmined(trx, tx);
      if (next.kind === 'fail') await failPayment(deps, tx.paymentId, next.code, `transaction ${receipt.transactionHash} reverted`, trx);
    },
    after: async () => {
      if (next.kind === 'elsewhere') await deps.startSubmit(tx.paymentId);
      if (next.kind !== 'retry') return;
      deps.log.warn(
        { paymentId: tx.paymentId, txHash: receipt.transactionHash, refusal, cause, attempt: next.attempt, retryInMs: next.delayMs },
        'submission reverted with its authorization unused and valid; submitted again',
      );
      await deps.submitLater(tx.paymentId, next.delayMs);
    },
  };
}

/**
 * Whether the payment's authorization (or permit) is used or cancelled on chain. A token checks the deadline before
 * the use (FiatToken: "authorization is expired" first), so past the deadline a refusal hides a copy that paid in
 * time: before a payment fails as expired, the token's own record is asked. Throws ChainUnavailable when the chain
 * cannot say (never decided from an absence).
 */
export async function authorizationTaken(deps: RelayerDeps, chain: EvmChain, paymentId: string): Promise<boolean> {
  const opt = await relayer.submissionInput(deps.db, paymentId);
  if (!opt?.typedData || !opt.signature) return false;
  return (await submissionPlan(chain, paymentId, opt, opt.signature as Hex).use()).kind !== 'unused';
}
