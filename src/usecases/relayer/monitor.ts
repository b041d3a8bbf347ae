import { inTransaction } from '../../db/knex';
import { getAddress, type Address, type Hex, type TransactionReceipt } from 'viem';
import type { EvmChain } from '../../chain/evm';
import { canonicalHash, head, isFinal, whoTookNonce } from '../../chain/proofs';
import { ChainUnavailable } from '../../domain/chain';
import * as relayer from '../../db/relayer';
import { failPayment, type RelayerDeps } from './paymentSteps';
import { unstick } from './fees';
import { authorizationTaken } from './submissionRetry';
import * as ledger from '../ledger/records';
import { OUTCOMES } from './outcomes';

// The monitor: per relayer key on a chain, one process at a time, one pass after another. Receipts, the
// confirmation depth and the block re-checked (reorgs); re-broadcast of what the node lost; what is stuck
// replaced or cancelled (src/usecases/relayer/fees.ts). Nothing is concluded from an absence: a transaction
// without a receipt is final only by what the chain proves (src/chain/proofs.ts). What a final outcome does is
// its purpose's entry in src/usecases/relayer/outcomes.ts, run in the database transaction that records the outcome.

const REBROADCAST_MS = 15_000;
const FRESH_MS = 3_000;
/**
 * Final outcomes per database transaction (one commit), and transactions at once: each applies its
 * payments one after another on its connection, so a few run side by side.
 */
const FINALIZE_BATCH = 16;
const FINALIZE_PARALLEL = 4;

async function receiptOf(chain: EvmChain, hashes: Hex[]): Promise<TransactionReceipt | null> {
  const found = await Promise.all(
    hashes.map((hash) =>
      chain.pub.getTransactionReceipt({ hash }).catch((e) => {
        if ((e as Error).name === 'TransactionReceiptNotFoundError') return null;
        throw new ChainUnavailable((e as Error).message);
      }),
    ),
  );
  return found.find((r) => r !== null) ?? null;
}

/**
 * Successful final receipts move their payments, in one transaction that also marks the chain transactions
 * final (a pass confirms many at once: one commit for all of them).
 */
async function finalizeConfirmed(deps: RelayerDeps, done: { tx: relayer.ChainTx; receipt: TransactionReceipt }[]): Promise<void> {
  const { db, log } = deps;
  const mine = await inTransaction(db, async (trx) => {
    const finished = await relayer.finishConfirmed(
      trx,
      done.map(({ tx, receipt }) => ({ id: tx.id, ...receipt })),
    );
    const ours = done.filter(({ tx }) => finished.has(tx.id));
    await ledger.recordGas(
      trx,
      ours.map(({ tx, receipt }) => [tx, receipt]),
    );
    for (const { tx, receipt } of ours) await OUTCOMES[tx.purpose].confirmed(deps, trx, tx, receipt);
    return ours;
  });
  for (const { tx, receipt } of mine) {
    log.info(
      { paymentId: tx.paymentId, purpose: tx.purpose, txHash: receipt.transactionHash, block: receipt.blockNumber.toString() },
      'transaction confirmed',
    );
    await OUTCOMES[tx.purpose].afterConfirmed(deps, tx);
  }
}

/** The receipt is a cancellation's: a transfer from the sender to itself (nothing else the relayer sends goes there). */
const isCancellation = (tx: relayer.ChainTx, receipt: TransactionReceipt) =>
  receipt.to !== null && getAddress(receipt.to) === getAddress(tx.sender);

/**
 * A final cancellation (src/usecases/relayer/fees.ts): the nonce went to the relayer's own transfer. The authorization
 * expired unused, and the payment fails with authorization_expired in the transaction that records it; unless the
 * token says a copy of it was mined in time (direct mode: anyone holding the signature may submit it): then the
 * submit step finds that transaction and the payment follows it.
 */
async function finalizeCancelled(deps: RelayerDeps, chain: EvmChain, tx: relayer.ChainTx, receipt: TransactionReceipt): Promise<void> {
  if (!relayer.ofPayment(tx)) return; // only a payment's transaction is ever cancelled
  const taken = await authorizationTaken(deps, chain, tx.paymentId);
  const finished = await inTransaction(deps.db, async (trx) => {
    if (!(await relayer.finish(trx, tx.id, 'dropped', receipt))) return false;
    await ledger.recordGas(trx, [[tx, receipt]]);
    await ledger.recordCollectUnmined(trx, tx);
    if (taken) return true;
    const reason = `the authorization expired before its transaction was mined; nonce ${tx.nonce} taken back by ${receipt.transactionHash}`;
    await failPayment(deps, tx.paymentId, 'authorization_expired', reason, trx);
    return true;
  });
  if (finished && taken) await deps.startSubmit(tx.paymentId);
}

/**
 * A reverted final receipt: its purpose's entry decides what follows, asking the chain first where it must
 * (src/usecases/relayer/outcomes.ts), then the revert is recorded with what it does, in one transaction.
 */
async function finalizeReverted(deps: RelayerDeps, chain: EvmChain, tx: relayer.ChainTx, receipt: TransactionReceipt): Promise<void> {
  const reverted = await OUTCOMES[tx.purpose].reverted(deps, chain, tx, receipt);
  const finished = await inTransaction(deps.db, async (trx) => {
    if (!(await relayer.finish(trx, tx.id, 'reverted', receipt, reverted.cause))) return false;
    if (reverted.gas) await ledger.recordGas(trx, [[tx, receipt]]);
    await reverted.record(trx);
    return true;
  });
  if (finished) await reverted.after();
}

/** An open transaction without a receipt: waits, re-broadcasts, is unstuck, or finds out where its nonce went. */
async function withoutReceipt(deps: RelayerDeps, chain: EvmChain, tx: relayer.ChainTx, chainTime: () => Promise<bigint>): Promise<void> {
  const { db, log } = deps;
  if (tx.status === 'mined') {
    // Seen mined before. The block at its height says whether a reorg took it out or the node hides its receipt.
    if ((await canonicalHash(chain, tx.blockNumber!)) === tx.blockHash) return;
    log.warn(
      { paymentId: tx.paymentId, txHash: tx.hash, block: tx.blockNumber?.toString() },
      'transaction reorged out; broadcasting again',
    );
    await inTransaction(db, async (trx) => {
      await relayer.markReorged(trx, tx.id);
      await ledger.recordCollectUnmined(trx, tx);
    });
    tx.broadcastAt = null;
  }
  const now = Date.now();
  // Just signed by a submitter that is about to broadcast it itself: leave it this pass.
  if (tx.broadcastAt === null && now - tx.signedAt.getTime() < FRESH_MS) return;
  if (now - tx.signedAt.getTime() > deps.stuckAfterMs && (await unstick(deps, chain, tx, chainTime))) return;
  // A stuck transaction left as it is goes out again at least once per stuck period.
  if (tx.broadcastAt === null || now - tx.broadcastAt.getTime() > Math.min(REBROADCAST_MS, deps.stuckAfterMs)) {
    const r = await chain.broadcast(tx.raw).catch((e) => (e instanceof ChainUnavailable ? null : Promise.reject(e)));
    if (r === 'sent' || r === 'known') await relayer.markBroadcast(db, tx.id);
    if (r === 'nonce_too_low') await nonceTaken(deps, chain, tx);
  }
}

/** One pass over the open transactions of one relayer key on a chain; returns how many are still open. */
export async function monitorChain(deps: RelayerDeps, chain: EvmChain, sender: string): Promise<number> {
  const { db } = deps;
  const open = await relayer.openTransactions(db, chain.caip2, sender);
  if (!open.length) return 0;
  const height = await head(chain);
  let latest: Promise<bigint> | null = null; // the latest block's time, asked only when an authorization's deadline is in question
  const chainTime = () => (latest ??= chain.latestTime());
  const receipts = await Promise.all(open.map((tx) => receiptOf(chain, [tx.hash, ...tx.previousHashes])));
  let stillOpen = 0;
  const atDepth: { tx: relayer.ChainTx; receipt: TransactionReceipt }[] = [];
  // Without a receipt: in nonce order (a re-broadcast must not leave a gap before a later nonce).
  for (const [i, tx] of open.entries()) {
    const receipt = receipts[i];
    if (!receipt) {
      stillOpen++;
      await withoutReceipt(deps, chain, tx, chainTime);
      continue;
    }
    if (height - receipt.blockNumber + 1n >= BigInt(chain.confirmations)) {
      atDepth.push({ tx, receipt });
      continue;
    }
    stillOpen++;
    if (tx.status !== 'mined' || tx.blockHash !== receipt.blockHash) {
      await inTransaction(db, async (trx) => {
        const reverted = receipt.status !== 'success';
        await relayer.markMined(trx, tx.id, receipt.transactionHash, receipt.blockNumber, receipt.blockHash, reverted);
        if (!reverted) await ledger.recordCollectMined(trx, tx, receipt);
      });
    }
  }
  // At depth: is each receipt's block still the chain's block at that height? (One batched round trip.)
  const heights = [...new Set(atDepth.map((a) => a.receipt.blockNumber))];
  const hashes = new Map(await Promise.all(heights.map(async (n) => [n, await canonicalHash(chain, n)] as const)));
  const final = atDepth.filter((a) => hashes.get(a.receipt.blockNumber) === a.receipt.blockHash);
  stillOpen += atDepth.length - final.length;
  // Successes in batches of one transaction each, a few at once; cancellations and reverts (rare: each reverted call
  // is simulated again) one at a time.
  const succeeded = final
    .filter((a) => a.receipt.status === 'success')
    .map(({ tx, receipt }) => ({ tx: { ...tx, hash: receipt.transactionHash }, receipt }));
  const ok = succeeded.filter((a) => !isCancellation(a.tx, a.receipt));
  const chunks = Array.from({ length: Math.ceil(ok.length / FINALIZE_BATCH) }, (_, i) =>
    ok.slice(i * FINALIZE_BATCH, (i + 1) * FINALIZE_BATCH),
  );
  for (let i = 0; i < chunks.length; i += FINALIZE_PARALLEL)
    await Promise.all(chunks.slice(i, i + FINALIZE_PARALLEL).map((c) => finalizeConfirmed(deps, c)));
  for (const { tx, receipt } of succeeded.filter((a) => isCancellation(a.tx, a.receipt))) await finalizeCancelled(deps, chain, tx, receipt);
  for (const { tx, receipt } of final.filter((a) => a.receipt.status !== 'success'))
    await finalizeReverted(deps, chain, { ...tx, hash: receipt.transactionHash }, receipt);
  return stillOpen;
}

/**
 * The node says the nonce is used, and none of our transactions at it shows a receipt. The chain says which
 * transaction took it: one of ours (mined; its receipt will show), or another one, and only once that one is
 * final is ours dropped (it can never be mined) and its step run again. A submission or settlement is never
 * sent a second time on an absence.
 */
async function nonceTaken(deps: RelayerDeps, chain: EvmChain, tx: relayer.ChainTx): Promise<void> {
  const { db, log } = deps;
  const took = await whoTookNonce(chain, getAddress(tx.sender), tx.nonce, [tx.hash, ...tx.previousHashes]);
  if (took.kind === 'unmined') return; // the pool and the chain disagree (nodes behind a balancer): ask again next pass
  if (took.kind === 'ours') {
    log.warn(
      { paymentId: tx.paymentId, txHash: took.hash, block: took.blockNumber.toString() },
      'transaction mined; the node does not show its receipt yet',
    );
    await relayer.markMined(db, tx.id, took.hash, took.blockNumber, took.blockHash, null);
    return;
  }
  if (!(await isFinal(chain, took))) return;
  const dropped = await inTransaction(db, async (trx) => {
    if (!(await relayer.finish(trx, tx.id, 'dropped'))) return false;
    await OUTCOMES[tx.purpose].dropped(deps, trx, tx);
    await ledger.recordCollectUnmined(trx, tx);
    return true;
  });
  if (!dropped) return;
  await relayer.resyncNonce(db, chain.caip2, tx.sender, await chain.pendingNonce(tx.sender as Address));
  log.error(
    { paymentId: tx.paymentId, purpose: tx.purpose, nonce: tx.nonce, sender: tx.sender, takenBy: took.hash },
    'relayer nonce taken by a transaction the relayer did not sign (is the key used elsewhere?); its step runs again, a sweep does not',
  );
  await OUTCOMES[tx.purpose].afterDropped(deps, tx);
}
