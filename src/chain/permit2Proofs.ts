import { getAddress, parseAbi, type Hex } from 'viem';
import type { ChainRefusal } from '../domain/chain';
import { ERC20_ALLOWANCE_ABI, nonceBit, PERMIT2_ABI, PERMIT2_ADDRESS, permitNonceHex, type PermitTerms } from '../domain/permit2';
import type { EvmChain } from './evm';
import { head, type AuthorizationUse } from './proofs';

// What the chain says about a Permit2 permit, from state, never from an absent receipt: whether its nonce's bit is
// set in Permit2's `nonceBitmap`, whether the owner's allowance to Permit2 and balance cover it, whether its
// deadline has passed; and, once its nonce is used, which transaction moved the tokens (the token's Transfer log
// from the owner to the recipient, in a transaction the spender sent to Permit2).

const TRANSFER_EVENT = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)'])[0];
/** How far back a permit's use is looked for (as for EIP-3009 authorizations, src/chain/proofs.ts). */
const LOG_LOOKBACK = 10_000n;
/** How long confirm waits for the receipt of an approve the wallet just sent. */
const APPROVE_WAIT_MS = 4_000;

export const permit2Allowance = (chain: EvmChain, token: string, owner: string): Promise<bigint> =>
  chain.call(() =>
    chain.pub.readContract({
      address: getAddress(token),
      abi: ERC20_ALLOWANCE_ABI,
      functionName: 'allowance',
      args: [getAddress(owner), PERMIT2_ADDRESS],
    }),
  );

/** Whether the permit's nonce is used (the bit is set in the owner's Permit2 bitmap), at the pending block. */
async function permitNonceUsed(chain: EvmChain, owner: string, nonce: bigint): Promise<boolean> {
  const { wordPos, mask } = nonceBit(nonce);
  const word = await chain.call(() =>
    chain.pub.readContract({
      address: PERMIT2_ADDRESS,
      abi: PERMIT2_ABI,
      functionName: 'nonceBitmap',
      args: [getAddress(owner), wordPos],
      blockTag: 'pending',
    }),
  );
  return (word & mask) !== 0n;
}

/** Why the permit cannot succeed now, read from the chain's state (null when nothing in it stands in the way). */
export async function permitRefusal(
  chain: EvmChain,
  { token, amount, nonce, deadline }: PermitTerms,
  owner: string,
): Promise<{ ok: false; refusal: ChainRefusal; reason: string } | null> {
  const [latest, used, allowance, balance] = await Promise.all([
    chain.call(() => chain.pub.getBlock({ blockTag: 'latest' })),
    permitNonceUsed(chain, owner, nonce),
    permit2Allowance(chain, token, owner),
    chain.tokenBalance(token, owner),
  ]);
  if (latest.timestamp > deadline)
    return { ok: false, refusal: 'authorization_expired', reason: `the permit's deadline ${deadline} has passed` };
  if (used) return { ok: false, refusal: 'authorization_used', reason: "the permit's nonce is used in Permit2" };
  if (allowance < amount)
    return { ok: false, refusal: 'allowance_insufficient', reason: `the owner's allowance to Permit2 is ${allowance}, below ${amount}` };
  if (balance < amount) return { ok: false, refusal: 'insufficient_funds', reason: `the owner's balance is ${balance}, below ${amount}` };
  return null;
}

/**
 * An approve the wallet reports it sent: waits briefly for its receipt. True when it is still not mined (the
 * buyer's confirm is refused as retryable); false when mined (its effect is then read as the allowance) or unknown.
 */
export async function approvalStillPending(chain: EvmChain, hash: Hex): Promise<boolean> {
  try {
    await chain.pub.waitForTransactionReceipt({ hash, timeout: APPROVE_WAIT_MS, pollingInterval: 250 });
    return false;
  } catch (e) {
    const name = (e as Error).name;
    if (name === 'WaitForTransactionReceiptTimeoutError') {
      const tx = await chain.pub.getTransaction({ hash }).catch(() => null);
      return tx !== null; // known to the node, not mined yet
    }
    return false;
  }
}

/**
 * What became of a permit whose nonce is used: the transaction that moved its amount from the owner to `to`
 * through Permit2, sent by `spender` (only the spender can execute it); `cancelled` when the nonce is used and no
 * such transfer exists (the owner invalidated it, or used it in another permit). Unused: `unused`.
 */
export async function permitUse(
  chain: EvmChain,
  { token, amount, nonce }: PermitTerms,
  owner: string,
  to: string,
  spender: string,
): Promise<AuthorizationUse> {
  if (!(await permitNonceUsed(chain, owner, nonce))) return { kind: 'unused' };
  const latest = await head(chain);
  const fromBlock = latest > LOG_LOOKBACK ? latest - LOG_LOOKBACK : 0n;
  const logs = await chain.call(() =>
    chain.pub.getLogs({
      address: getAddress(token),
      event: TRANSFER_EVENT,
      args: { from: getAddress(owner), to: getAddress(to) },
      fromBlock,
      toBlock: latest,
    }),
  );
  const nonceWord = permitNonceHex(nonce).slice(2);
  for (const log of logs) {
    if (log.args.value !== amount || !log.blockHash || log.blockNumber === null) continue;
    const tx = await chain.call(() => chain.pub.getTransaction({ hash: log.transactionHash! }));
    if (getAddress(tx.from) !== getAddress(spender) || !tx.to || getAddress(tx.to) !== PERMIT2_ADDRESS) continue;
    if (!tx.input.toLowerCase().includes(nonceWord)) continue;
    return { kind: 'used', hash: log.transactionHash!, blockNumber: log.blockNumber, blockHash: log.blockHash };
  }
  const at = await chain.call(() => chain.pub.getBlock({ blockNumber: latest }));
  return { kind: 'cancelled', hash: at.hash, blockNumber: latest, blockHash: at.hash };
}
