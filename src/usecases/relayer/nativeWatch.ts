import { inTransaction } from '../../db/knex';
import type { EvmChain } from '../../chain/evm';
import { nativeOutcome } from '../../chain/nativeCoin';
import type { NativeQuote } from '../../domain/nativeQuote';
import * as payments from '../../db/payments';
import { awaitingFunds } from '../../db/refundsRepo';
import * as ledger from '../ledger/records';
import type { RelayerDeps } from './deps';
import { failPayment, NotYetVisible } from './stepOutcomes';

// A confirmed native-coin payment (issue 49) has nothing for the relayer to send: the buyer's own transaction paid
// the router. Its submit step watches instead, from the job queue (and the reconciler after a crash), until the
// router's state at the confirmation depth decides (src/chain/nativeCoin.ts nativeOutcome): paid, the payment
// succeeds with the transaction its Paid log names (the one confirm was given, or the wallet's replacement of it),
// and in collector mode the ledger records what the collector received; the deadline passed unpaid at depth, it
// fails (the router refuses any later transaction, so no coin can move for it); else it is looked at again, backing
// off. A reorg that takes the payment out before the depth only makes it wait longer. Paid to a collector (a key of
// this instance), the coin is settled onward like a token (src/usecases/relayer/paymentSteps.ts settlePayment), and
// the account's refunds waiting for funds are looked at again.

export async function watchNativePayment(deps: RelayerDeps, chain: EvmChain, paymentId: string, q: NativeQuote): Promise<string | null> {
  const outcome = await nativeOutcome(chain, q);
  if (outcome.kind === 'waiting') throw new NotYetVisible(`${paymentId}: ${outcome.reason}`);
  if (outcome.kind === 'expired') {
    await failPayment(deps, paymentId, 'authorization_expired', 'the router was not paid by the deadline, at the confirmation depth');
    return null;
  }
  if (outcome.kind === 'mismatched') {
    await failPayment(deps, paymentId, 'transaction_reverted', outcome.reason);
    return null;
  }
  const done = await inTransaction(deps.db, async (trx) => {
    const moved = await payments.applyTransition(trx, paymentId, 'chain_confirmed', { txHash: outcome.hash });
    if (moved)
      await ledger.recordCollected(
        trx,
        paymentId,
        { transactionHash: outcome.hash, blockNumber: outcome.blockNumber },
        null,
        deps.refundReserve,
      );
    return moved;
  });
  if (!done) return null;
  deps.log.info({ paymentId, chainId: chain.caip2, txHash: outcome.hash }, 'native payment final');
  if (chain.holds(q.message.to)) {
    await deps.startSettle(paymentId);
    for (const id of await awaitingFunds(deps.db, paymentId)) await deps.startRefund(id);
  }
  return outcome.hash;
}
