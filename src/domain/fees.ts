// EIP-1559 fees of the relayer's transactions, and the rule for replacing a stuck one at the same nonce.

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** A replacement at the same nonce enters a pool only if it raises both fields enough (geth and most nodes want +10 %). */
const step = (wei: bigint) => (wei * 1125n) / 1000n + 1n;
const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** The network asks more than the transaction offers: what a new transaction would offer now is higher in either field. */
export const networkAsksMore = (offered: Fees, network: Fees) =>
  network.maxFeePerGas > offered.maxFeePerGas || network.maxPriorityFeePerGas > offered.maxPriorityFeePerGas;

/**
 * The fees of a replacement for a transaction offering `old`: what the network asks now, at least one replacement
 * step over `old` in each field, never above `ceiling` per gas. Null when the ceiling leaves no room for a step.
 */
export function replacementFees(old: Fees, network: Fees, ceiling: bigint): Fees | null {
  const atLeast = { maxFeePerGas: step(old.maxFeePerGas), maxPriorityFeePerGas: step(old.maxPriorityFeePerGas) };
  const maxFeePerGas = min(max(network.maxFeePerGas, atLeast.maxFeePerGas), ceiling);
  const maxPriorityFeePerGas = min(max(network.maxPriorityFeePerGas, atLeast.maxPriorityFeePerGas), maxFeePerGas);
  if (maxFeePerGas < atLeast.maxFeePerGas || maxPriorityFeePerGas < atLeast.maxPriorityFeePerGas) return null;
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/**
 * The fees of a cancellation of a transaction offering `old` (a 0-value transfer to the sender at its nonce): those of
 * a replacement, except that it passes `ceiling` where one replacement step over `old` does, so that it can always
 * replace. It uses 21,000 gas, about what the transaction it takes back burns by reverting, and without it that
 * transaction holds the nonce (and every later one of the key) until it reverts.
 */
export const cancellationFees = (old: Fees, network: Fees, ceiling: bigint): Fees =>
  replacementFees(old, network, max(step(old.maxFeePerGas), ceiling))!; // one step over `old` always fits under that ceiling
