import { getAddress, parseAbi, type Address, type Hex } from 'viem';
import { ChainUnavailable } from '../domain/chain';
import { TOKEN_ABI, type EvmChain } from './evm';

// What the chain says for sure about a transaction the relayer cannot see. A missing receipt, a timeout or
// "nonce too low" from a node proves nothing (receipt indexes lag, providers balance requests over nodes that
// disagree); these answers come from state and blocks instead: which transaction took a nonce of a relayer
// key, and which transaction used (or cancelled) an EIP-3009 authorization. Each is final only once its block
// is at the chain's confirmation depth and still the chain's block at that height.

const AUTH_EVENTS = parseAbi(['event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)']);
const CANCEL_EVENTS = parseAbi(['event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)']);
/** How far back an authorization's use is looked for: providers refuse log ranges much wider than this. */
const LOG_LOOKBACK = 10_000n;

export interface Inclusion {
  hash: Hex;
  blockNumber: bigint;
  blockHash: Hex;
}

/** Who took a sender's nonce: nobody yet, one of `ours` (the hashes signed at that nonce), or another transaction. */
export type NonceTaker = { kind: 'unmined' } | ({ kind: 'ours' | 'other' } & Inclusion);

/** The chain's latest block number, never cached. */
export const head = (chain: EvmChain) => chain.call(() => chain.pub.getBlockNumber({ cacheTime: 0 }));

/** How many transactions `sender` had mined by the end of `block` (0 before the chain's first block). */
export async function nonceCountAt(chain: EvmChain, sender: Address, block: bigint): Promise<bigint> {
  return block < 0n ? 0n : BigInt(await chain.call(() => chain.pub.getTransactionCount({ address: sender, blockNumber: block })));
}

/**
 * Finds the transaction that took `nonce` of `sender`: the first block after which the sender's nonce count
 * passes it (searched back from the head, doubling, then halving: a few dozen state reads at most), then that
 * block's transaction from the sender at that nonce.
 */
export async function whoTookNonce(chain: EvmChain, sender: Address, nonce: number, ours: string[]): Promise<NonceTaker> {
  const n = BigInt(nonce);
  const countAt = (b: bigint) => nonceCountAt(chain, sender, b);
  let hi = await head(chain);
  if ((await countAt(hi)) <= n) return { kind: 'unmined' };
  let lo = hi - 1n;
  for (let step = 1n; (await countAt(lo)) > n; step *= 2n) {
    hi = lo;
    lo = hi - step < -1n ? -1n : hi - step;
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if ((await countAt(mid)) <= n) lo = mid;
    else hi = mid;
  }
  const block = await chain.call(() => chain.pub.getBlock({ blockNumber: hi, includeTransactions: true }));
  const tx = block.transactions.find((t) => getAddress(t.from) === getAddress(sender) && t.nonce === nonce);
  if (!tx || !block.hash) throw new ChainUnavailable(`block ${hi} holds no transaction of ${sender} at nonce ${nonce}`);
  const mine = ours.some((h) => h.toLowerCase() === tx.hash.toLowerCase());
  return { kind: mine ? 'ours' : 'other', hash: tx.hash, blockNumber: hi, blockHash: block.hash };
}

/** What became of an EIP-3009 authorization: unused, used by a transaction, or cancelled by its signer. */
export type AuthorizationUse = { kind: 'unused' } | ({ kind: 'used' } & Inclusion) | ({ kind: 'cancelled' } & Inclusion);

/**
 * The authorization's state on the token, and the transaction that changed it (its AuthorizationUsed or
 * AuthorizationCanceled log). Throws ChainUnavailable when the state says used but no log says by whom
 * (older than the lookback, or a node that cannot serve logs): never guessed.
 */
export async function authorizationUse(chain: EvmChain, token: Address, authorizer: Address, nonce: Hex): Promise<AuthorizationUse> {
  const used = await chain.call(() =>
    chain.pub.readContract({ address: token, abi: TOKEN_ABI, functionName: 'authorizationState', args: [authorizer, nonce] }),
  );
  if (!used) return { kind: 'unused' };
  const to = await head(chain);
  const fromBlock = to > LOG_LOOKBACK ? to - LOG_LOOKBACK : 0n;
  const range = { address: token, args: { authorizer, nonce }, fromBlock, toBlock: to } as const;
  const [use] = await chain.call(() => chain.pub.getLogs({ ...range, event: AUTH_EVENTS[0] }));
  if (use?.blockHash && use.blockNumber !== null)
    return { kind: 'used', hash: use.transactionHash!, blockNumber: use.blockNumber, blockHash: use.blockHash };
  const [cancel] = await chain.call(() => chain.pub.getLogs({ ...range, event: CANCEL_EVENTS[0] }));
  if (cancel?.blockHash && cancel.blockNumber !== null)
    return { kind: 'cancelled', hash: cancel.transactionHash!, blockNumber: cancel.blockNumber, blockHash: cancel.blockHash };
  throw new ChainUnavailable(`authorization ${nonce} of ${authorizer} is used, and no log within ${LOG_LOOKBACK} blocks says by whom`);
}

/** The block is at the chain's confirmation depth and is still the chain's block at its height. */
export async function isFinal(chain: EvmChain, at: { blockNumber: bigint; blockHash: string }): Promise<boolean> {
  if ((await head(chain)) - at.blockNumber + 1n < BigInt(chain.confirmations)) return false;
  return (await canonicalHash(chain, at.blockNumber)) === at.blockHash;
}

/** The hash of the chain's block at `height` now. */
export async function canonicalHash(chain: EvmChain, height: bigint): Promise<string | null> {
  try {
    return (await chain.pub.getBlock({ blockNumber: height })).hash;
  } catch (e) {
    if ((e as Error).name === 'BlockNotFoundError') return null; // the chain is shorter now (a reorg)
    throw new ChainUnavailable((e as Error).message);
  }
}
