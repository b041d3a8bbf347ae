import { Db, inTransaction } from '../db/knex';
import { getAddress, type Address, type Hex, type TransactionReceipt } from 'viem';
import type { Logger } from '../logger';
import type { Chains } from '../chain/chains';
import type { EvmChain, Fees } from '../chain/evm';
import { ChainUnavailable, type ChainRefusal } from '../domain/chain';
import type { TransferAuthorization } from '../domain/eip3009';
import { parseAccountId, parseAssetId } from '../domain/caip';
import { feeInTokenUnits } from '../domain/money';
import * as payments from '../db/paymentsRepo';
import * as relayer from '../db/relayerRepo';
import type { Submissions } from './relayerSubmissions';

// What the relayer does with a confirmed payment, in three steps that each survive a crash:
//   submit:  simulate the authorization, sign it under a nonce from PostgreSQL, store, then broadcast;
//   monitor: per chain, one process at a time: receipts, confirmation depth and the block re-checked
//            (reorgs), re-broadcast of what the node lost, fee-bumped replacement of what is stuck;
//   settle:  (collector mode) amount minus fee from the collector to the merchant's current destination.
// The payment moves only on final outcomes, each in the transaction that records the outcome.

export class NotYetVisible extends Error {}

export interface RelayerDeps {
  db: Db;
  chains: Chains;
  log: Logger;
  /** Signs, stores and broadcasts the relayer's new transactions, in batches per key. */
  submissions: Submissions;
  /** A pending transaction older than this is replaced with higher fees. */
  stuckAfterMs: number;
  /** After a collect transaction is final: settle it. */
  enqueueSettle(paymentId: string): Promise<void>;
  /** After a submission lost its nonce: submit again. */
  enqueueSubmit(paymentId: string): Promise<void>;
}

const REBROADCAST_MS = 15_000;
const FRESH_MS = 3_000;
/**
 * Final outcomes per database transaction (one commit), and transactions at once: each applies its
 * payments one after another on its connection, so a few run side by side.
 */
const FINALIZE_BATCH = 16;
const FINALIZE_PARALLEL = 4;
/** Gas estimates get headroom: state may change between simulation and inclusion. */
const withHeadroom = (gas: bigint) => (gas * 13n) / 10n + 10_000n;

async function failPayment(deps: RelayerDeps, paymentId: string, code: ChainRefusal, reason: string, trx?: Db) {
  const done = await payments.applyTransition(trx ?? deps.db, paymentId, 'chain_failed', { failureCode: code });
  if (done) deps.log.warn({ paymentId, failureCode: code, reason }, 'payment failed on chain');
}

async function broadcast(deps: RelayerDeps, chain: EvmChain, tx: relayer.ChainTx): Promise<void> {
  try {
    const r = await chain.broadcast(tx.raw);
    if (r !== 'nonce_too_low') await relayer.markBroadcast(deps.db, tx.id);
    // nonce_too_low: the monitor looks for a receipt first, and only then treats the nonce as lost.
  } catch (e) {
    if (!(e instanceof ChainUnavailable)) throw e;
    deps.log.warn({ chainId: chain.caip2, txHash: tx.hash, err: e.message }, 'broadcast failed; the monitor will send it again');
  }
}

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
  const td = JSON.parse(opt.typedData) as TransferAuthorization;
  const purpose: relayer.TxPurpose = td.primaryType === 'ReceiveWithAuthorization' ? 'collect' : 'direct';
  const sender = getAddress(purpose === 'collect' ? td.message.to : (opt.relayer ?? chain.pickRelayer(paymentId)));
  if (!chain.holds(sender)) {
    log.error({ paymentId, relayer: sender }, 'this process holds no key for the relayer that must submit; another process may');
    throw new ChainUnavailable(`no key for ${sender}`);
  }
  if (opt.liveHash) return opt.liveHash;
  const call = chain.authorizationCall(td, signature as Hex);
  const sim = await chain.simulate(sender, call);
  if (!sim.ok) {
    // Another step of this payment (its queued job beside an inline run, or the reconciler's) may have stored
    // and sent the transaction since the read above: then its own transaction used the authorization, and the
    // payment follows that transaction, not this simulation.
    const sent = await relayer.liveTransaction(db, paymentId, purpose);
    if (sent) return sent.hash;
    await failPayment(deps, paymentId, sim.refusal, sim.reason);
    return null;
  }
  const fees = await chain.fees();
  const auth = { chainId: chain.caip2, token: call.to, from: getAddress(td.message.from), nonce: td.message.nonce.toLowerCase() };
  const gasLimit = withHeadroom(sim.gas);
  const tx = { chainId: chain.caip2, sender, purpose, paymentId, to: call.to, calldata: call.data, gasLimit, ...fees };
  const r = await deps.submissions.submit(chain, sender, { tx, call, fees, authorization: auth });
  if (r.kind === 'taken') {
    await failPayment(deps, paymentId, 'authorization_used', `authorization already submitted for ${r.owner}`);
    return null;
  }
  if (r.kind === 'live') return (await relayer.liveTransaction(db, paymentId, purpose))?.hash ?? null;
  log.info({ paymentId, chainId: chain.caip2, txHash: r.tx.hash, nonce: r.tx.nonce, sender }, 'authorization submitted');
  return r.tx.hash;
}

/** Collector mode: sends amount minus fee to the merchant's destination as it is now. */
export async function settlePayment(deps: RelayerDeps, paymentId: string): Promise<string | null> {
  const { db, chains, log } = deps;
  const found = await payments.findPayment(db, paymentId);
  if (!found || !found.asset) return null;
  const p = found.payment;
  if (p.status !== 'succeeded' || p.settledAt || p.tokenAmount === null) return null;
  const { collect, settleLive, destination, ...terms } = await relayer.settlementInput(db, p, found.asset.id);
  if (!collect || collect.status !== 'confirmed' || settleLive) return null;
  const chain = chains.get(found.asset.chainId);
  if (!chain) return null;
  if (!destination) {
    log.warn({ paymentId, asset: found.asset.id }, 'settlement held: the merchant has no destination for this asset any more');
    return null;
  }
  const fee = feeInTokenUnits(p.tokenAmount, p.currency, found.asset.decimals, terms.feeBaseMinor, terms.feeBps);
  const amount = p.tokenAmount - fee;
  if (amount <= 0n) {
    log.warn({ paymentId }, 'settlement held: the fee takes the whole amount');
    return null;
  }
  const sender = getAddress(collect.sender);
  const call = chain.transferCall(parseAssetId(found.asset.id).assetReference, parseAccountId(destination).address, amount);
  const sim = await chain.simulate(sender, call);
  if (!sim.ok) {
    log.error({ paymentId, refusal: sim.refusal, reason: sim.reason }, 'settlement transfer would fail; held for the reconciler');
    return null;
  }
  const fees = await chain.fees();
  const tx = {
    chainId: chain.caip2,
    sender,
    purpose: 'settle' as const,
    paymentId,
    to: call.to,
    calldata: call.data,
    gasLimit: withHeadroom(sim.gas),
    ...fees,
  };
  const r = await deps.submissions.submit(chain, sender, { tx, call, fees, plan: { fee, amount, destination } });
  if (r.kind !== 'stored') return null;
  log.info({ paymentId, txHash: r.tx.hash, amount: amount.toString(), fee: fee.toString() }, 'settlement submitted');
  return r.tx.hash;
}

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
    for (const { tx, receipt } of ours) {
      if (tx.purpose === 'settle') await payments.markSettled(trx, tx.paymentId, receipt.transactionHash);
      else await payments.applyTransition(trx, tx.paymentId, 'chain_confirmed', { txHash: receipt.transactionHash });
    }
    return ours;
  });
  for (const { tx, receipt } of mine) {
    log.info(
      { paymentId: tx.paymentId, purpose: tx.purpose, txHash: receipt.transactionHash, block: receipt.blockNumber.toString() },
      'transaction confirmed',
    );
    if (tx.purpose === 'collect') await deps.enqueueSettle(tx.paymentId);
  }
}

/** A reverted final receipt fails the payment (not a settlement: that stays unsettled), in the transaction that records it. */
async function finalizeReverted(deps: RelayerDeps, chain: EvmChain, tx: relayer.ChainTx, receipt: TransactionReceipt): Promise<void> {
  const { db, log } = deps;
  // Why it reverted, as far as the chain can tell now (the same call, simulated again).
  const sim = await chain.simulate(getAddress(tx.sender), { to: tx.to, data: tx.calldata });
  const refusal: ChainRefusal = sim.ok ? 'transaction_reverted' : sim.refusal;
  await inTransaction(db, async (trx) => {
    if (!(await relayer.finish(trx, tx.id, 'reverted', receipt))) return;
    if (tx.purpose !== 'settle') await failPayment(deps, tx.paymentId, refusal, `transaction ${receipt.transactionHash} reverted`, trx);
  });
  if (tx.purpose === 'settle')
    log.error(
      { paymentId: tx.paymentId, txHash: receipt.transactionHash, refusal },
      'settlement transfer reverted; the payment stays unsettled',
    );
}

async function replaceStuck(deps: RelayerDeps, chain: EvmChain, tx: relayer.ChainTx): Promise<void> {
  const now = await chain.fees();
  const bump = (old: bigint) => (old * 1125n) / 1000n + 1n; // pools want at least +10 %
  const next: Fees = chain.capped({
    maxFeePerGas: now.maxFeePerGas > bump(tx.maxFeePerGas) ? now.maxFeePerGas : bump(tx.maxFeePerGas),
    maxPriorityFeePerGas:
      now.maxPriorityFeePerGas > bump(tx.maxPriorityFeePerGas) ? now.maxPriorityFeePerGas : bump(tx.maxPriorityFeePerGas),
  });
  if (next.maxFeePerGas <= tx.maxFeePerGas) {
    await broadcast(deps, chain, tx); // at the fee cap: wait for fees to fall
    return;
  }
  const signed = await chain.sign(getAddress(tx.sender), tx.nonce, { to: tx.to, data: tx.calldata }, tx.gasLimit, next);
  await relayer.replace(deps.db, tx.id, signed.raw, signed.hash, next);
  deps.log.warn(
    { paymentId: tx.paymentId, nonce: tx.nonce, oldHash: tx.hash, newHash: signed.hash },
    'stuck transaction replaced with higher fees',
  );
  await broadcast(deps, chain, { ...tx, raw: signed.raw, hash: signed.hash });
}

/** One pass over the open transactions of one relayer key on a chain; returns how many are still open. */
export async function monitorChain(deps: RelayerDeps, chain: EvmChain, sender: string): Promise<number> {
  const { db } = deps;
  const open = await relayer.openTransactions(db, chain.caip2, sender);
  if (!open.length) return 0;
  const head = await chain.call(() => chain.pub.getBlockNumber({ cacheTime: 0 }));
  const receipts = await Promise.all(open.map((tx) => receiptOf(chain, [tx.hash, ...tx.previousHashes])));
  let stillOpen = 0;
  const atDepth: { tx: relayer.ChainTx; receipt: TransactionReceipt }[] = [];
  // Without a receipt: in nonce order (a re-broadcast must not leave a gap before a later nonce).
  for (const [i, tx] of open.entries()) {
    const receipt = receipts[i];
    if (!receipt) {
      stillOpen++;
      if (tx.status === 'mined') {
        // A reorg took it out: the same signed bytes are still valid at that nonce; send them again.
        deps.log.warn(
          { paymentId: tx.paymentId, txHash: tx.hash, block: tx.blockNumber?.toString() },
          'transaction reorged out; broadcasting again',
        );
        await relayer.markReorged(db, tx.id);
        tx.broadcastAt = null;
      }
      // Just signed by a submitter that is about to broadcast it itself: leave it this pass.
      if (tx.broadcastAt === null && Date.now() - tx.signedAt.getTime() < FRESH_MS) continue;
      if (tx.broadcastAt === null || Date.now() - tx.broadcastAt.getTime() > REBROADCAST_MS) {
        const r = await chain.broadcast(tx.raw).catch((e) => (e instanceof ChainUnavailable ? null : Promise.reject(e)));
        if (r === 'sent' || r === 'known') await relayer.markBroadcast(db, tx.id);
        if (r === 'nonce_too_low') await lostNonce(deps, chain, tx);
      } else if (Date.now() - tx.signedAt.getTime() > deps.stuckAfterMs) {
        await replaceStuck(deps, chain, tx);
      }
      continue;
    }
    if (head - receipt.blockNumber + 1n >= BigInt(chain.confirmations)) {
      atDepth.push({ tx, receipt });
      continue;
    }
    stillOpen++;
    if (tx.status !== 'mined' || tx.blockHash !== receipt.blockHash) {
      await relayer.markMined(db, tx.id, receipt.transactionHash, receipt.blockNumber, receipt.blockHash);
    }
  }
  // At depth: is each receipt's block still the chain's block at that height? (One batched round trip.)
  const heights = [...new Set(atDepth.map((a) => a.receipt.blockNumber))];
  const hashes = new Map(
    await Promise.all(heights.map(async (n) => [n, (await chain.call(() => chain.pub.getBlock({ blockNumber: n }))).hash] as const)),
  );
  const final = atDepth.filter((a) => hashes.get(a.receipt.blockNumber) === a.receipt.blockHash);
  stillOpen += atDepth.length - final.length;
  // Successes in batches of one transaction each, a few at once; reverts (rare: each is simulated again) one at a time.
  const ok = final
    .filter((a) => a.receipt.status === 'success')
    .map(({ tx, receipt }) => ({ tx: { ...tx, hash: receipt.transactionHash }, receipt }));
  const chunks = Array.from({ length: Math.ceil(ok.length / FINALIZE_BATCH) }, (_, i) =>
    ok.slice(i * FINALIZE_BATCH, (i + 1) * FINALIZE_BATCH),
  );
  for (let i = 0; i < chunks.length; i += FINALIZE_PARALLEL)
    await Promise.all(chunks.slice(i, i + FINALIZE_PARALLEL).map((c) => finalizeConfirmed(deps, c)));
  for (const { tx, receipt } of final.filter((a) => a.receipt.status !== 'success'))
    await finalizeReverted(deps, chain, { ...tx, hash: receipt.transactionHash }, receipt);
  return stillOpen;
}

/** The node says the nonce is used, and none of our transactions at it has a receipt: it went elsewhere. */
async function lostNonce(deps: RelayerDeps, chain: EvmChain, tx: relayer.ChainTx): Promise<void> {
  // Mined since this pass read its receipts (a submitter's broadcast): the next pass will see it.
  if (await receiptOf(chain, [tx.hash, ...tx.previousHashes])) return;
  if (!(await relayer.finish(deps.db, tx.id, 'dropped'))) return;
  await relayer.resyncNonce(deps.db, chain.caip2, tx.sender, await chain.pendingNonce(tx.sender as Address));
  deps.log.error(
    { paymentId: tx.paymentId, nonce: tx.nonce, sender: tx.sender },
    'relayer nonce used by another transaction (is the key used elsewhere?); submitting again',
  );
  if (tx.purpose === 'settle') await deps.enqueueSettle(tx.paymentId);
  else await deps.enqueueSubmit(tx.paymentId);
}
