import { getAddress, TransactionNotFoundError, TransactionReceiptNotFoundError, type Address, type Hex } from 'viem';
import { ChainUnavailable, type AuthorizationCheck } from '../domain/chain';
import type { NativeCoin, NativeQuote } from '../domain/nativeQuote';

export type { NativeCoin };
import { isStale } from '../domain/nativePrice';
import type { EvmChain } from './evm';
import { readFeed, type FeedRound } from './priceFeed';
import { canonicalHash, head } from './proofs';
import { encodeRouterPay, paidEvents, ROUTER_ABI } from './nativeRouter';

// The chain's own coin on one chain (issue 49): the router contract the buyer pays through, and the price feeds
// (Chainlink AggregatorV3) that price it in each currency. What confirm checks of the buyer's transaction, and what
// the relayer's watch step decides a payment by: the router's state (which payer paid which reference) at a block
// at the confirmation depth, and the Paid log naming the transaction. Never a missing receipt: a transaction the node
// does not show is waited for until the state proves it can no longer pay (its deadline passed, unpaid, at depth).

/** How long confirm waits for a transaction the node does not know yet (a wallet confirms right after it sends). */
const SEEN_WAIT_MS = 4_000;
const SEEN_POLL_MS = 250;
/** How far back the Paid log of a reference is looked for: providers refuse much wider log ranges. */
const LOG_LOOKBACK = 10_000n;

/** The coin's price in `currency` now: the feed's latest round, and whether it is older than its heartbeat. */
export async function nativePrice(chain: EvmChain, currency: string): Promise<(FeedRound & { feed: Address; stale: boolean }) | null> {
  const feed = chain.native?.feeds[currency];
  if (!feed) return null;
  const [round, now] = await Promise.all([chain.call(() => readFeed(chain.pub, feed.address)), chain.latestTime()]);
  return { ...round, feed: feed.address, stale: isStale(round.updatedAt, now, feed.heartbeatS) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The node's answer, or null when it says it has no such transaction or receipt (yet); ChainUnavailable otherwise. */
async function orNotFound<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof TransactionNotFoundError || e instanceof TransactionReceiptNotFoundError) return null;
    throw new ChainUnavailable(e instanceof Error ? e.message : String(e));
  }
}

async function transactionOf(chain: EvmChain, hash: Hex) {
  for (const until = Date.now() + SEEN_WAIT_MS; ; await sleep(SEEN_POLL_MS)) {
    const tx = await orNotFound(() => chain.pub.getTransaction({ hash }));
    if (tx || Date.now() >= until) return tx;
  }
}

const PAID_EVENT = ROUTER_ABI[2];

const mismatch = (reason: string) => ({ ok: false, refusal: 'transaction_mismatch', reason }) as const;

/**
 * Confirm's check of the buyer's transaction: the node knows it (waited for briefly), and it is exactly the option's
 * pay call: on the option's chain, from the option's account, to the router, with the quoted value and calldata. Mined
 * already, it must have succeeded; pending, the watch step decides by the router's state.
 */
export async function checkNativeTransaction(chain: EvmChain, q: NativeQuote, hash: string): Promise<AuthorizationCheck> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) return mismatch('the result is not a transaction hash');
  const h = hash.toLowerCase() as Hex;
  const tx = await transactionOf(chain, h);
  if (!tx) return { ok: false, refusal: 'transaction_not_found', reason: `the chain's node does not know ${h}` };
  const m = q.message;
  const data = encodeRouterPay({ ref: m.ref, to: m.to, amount: BigInt(m.value), deadline: BigInt(m.deadline) });
  if (tx.chainId !== undefined && tx.chainId !== q.domain.chainId) return mismatch(`${h} is for chain ${tx.chainId}`);
  if (tx.chainId === undefined) return mismatch(`${h} is not replay-protected (EIP-155): it names no chain`);
  if (getAddress(tx.from) !== m.from) return mismatch(`${h} is sent by ${tx.from}, not the option's account`);
  if (!tx.to || getAddress(tx.to) !== m.router) return mismatch(`${h} is not sent to the router ${m.router}`);
  if (tx.value !== BigInt(m.value)) return mismatch(`${h} sends ${tx.value} wei, the option ${m.value}`);
  if (tx.input.toLowerCase() !== data) return mismatch(`${h} is not this option's pay call`);
  const receipt = await orNotFound(() => chain.pub.getTransactionReceipt({ hash: h }));
  if (receipt && receipt.status !== 'success')
    return { ok: false, refusal: 'transaction_reverted', reason: `${h} reverted in block ${receipt.blockNumber}` };
  // Not mined, and the chain is past its deadline: the router would refuse it now (the payment stays payable).
  if (!receipt && (await chain.latestTime()) > BigInt(m.deadline))
    return { ok: false, refusal: 'authorization_expired', reason: `${h} is not mined and the quote's deadline has passed` };
  return { ok: true, signature: h };
}

/** What the chain says of a native option's payment, at the confirmation depth. */
export type NativeOutcome =
  | { kind: 'paid'; hash: Hex; blockNumber: bigint; blockHash: Hex }
  | { kind: 'waiting'; reason: string }
  /** The router can no longer take it: its deadline passed at a block at depth, with the reference unpaid by the buyer. */
  | { kind: 'expired' }
  /** The buyer paid the reference with other terms than the option's (a call crafted by hand): not this payment. */
  | { kind: 'mismatched'; hash: Hex; reason: string };

/**
 * The outcome of the option's payment: the router's record of (ref, buyer) read at the deepest block the chain's
 * confirmation depth makes final; paid, the Paid log of that payer and reference names the transaction (a transaction
 * the wallet replaced, sped up, pays as well as the one confirm was given). Throws ChainUnavailable when the node
 * cannot be asked, or when the state says paid and no log says by which transaction (never guessed).
 */
export async function nativeOutcome(chain: EvmChain, q: NativeQuote): Promise<NativeOutcome> {
  const m = q.message;
  const latest = await head(chain);
  const depth = latest - BigInt(chain.confirmations) + 1n;
  if (depth < 0n) return { kind: 'waiting', reason: 'the chain is shorter than its confirmation depth' };
  const block = await chain.call(() => chain.pub.getBlock({ blockNumber: depth }));
  const paid = await chain.call(() =>
    chain.pub.readContract({ address: m.router, abi: ROUTER_ABI, functionName: 'isPaid', args: [m.ref, m.from], blockNumber: depth }),
  );
  if (!paid)
    return block.timestamp > BigInt(m.deadline)
      ? { kind: 'expired' }
      : { kind: 'waiting', reason: `not paid by block ${depth}, at the confirmation depth` };
  const fromBlock = depth > LOG_LOOKBACK ? depth - LOG_LOOKBACK : 0n;
  const logs = await chain.call(() =>
    chain.pub.getLogs({ address: m.router, event: PAID_EVENT, args: { ref: m.ref, payer: m.from }, fromBlock, toBlock: depth }),
  );
  const log = logs[0];
  if (!log?.blockHash || log.blockNumber === null || !log.transactionHash)
    throw new ChainUnavailable(`${m.ref} is paid by ${m.from} and no Paid log within ${LOG_LOOKBACK} blocks says how`);
  // The log's block is at or below the depth block, which was read from the chain just now; still the chain's?
  if ((await canonicalHash(chain, log.blockNumber)) !== log.blockHash) return { kind: 'waiting', reason: 'a reorg is under way' };
  const [e] = paidEvents([{ address: log.address, topics: log.topics as Hex[], data: log.data }], m.router);
  if (!e || e.to !== m.to || e.amount !== BigInt(m.value))
    return { kind: 'mismatched', hash: log.transactionHash, reason: `${log.transactionHash} paid the reference with other terms` };
  return { kind: 'paid', hash: log.transactionHash, blockNumber: log.blockNumber, blockHash: log.blockHash };
}
