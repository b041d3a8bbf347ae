import { getAddress, type Hex } from 'viem';
import { ChainUnavailable, type DevelopmentChain } from '../domain/chain';
import { anvilRpc } from './anvil';
import { devnetAssets, devnetOwnAddresses } from './devnet';
import { devnetBlacklist } from './devnetTokens';
import type { EvmChain } from './evm';

// The test helpers' hold on an embedded development chain (docs/testmode.md, "Test helpers"): anvil's own methods
// and the tokens' admin keys, which exist there only. What follows on chain is left to the service's real code.

export function developmentChain(chain: EvmChain): DevelopmentChain {
  return {
    reorgOut: (txHash, mayDrop) => unavailableOnError(() => reorgOut(chain, txHash as Hex, mayDrop)),
    blacklist: (address, listed) =>
      unavailableOnError(async () => {
        const out: { asset: string; txHash: string }[] = [];
        for (const a of devnetAssets(chain.chainId)) {
          const token = getAddress(a.asset.split(':').at(-1)!);
          out.push({ asset: a.asset, txHash: await devnetBlacklist(chain.rpcUrl, token, getAddress(address), listed) });
        }
        return out;
      }),
    ownAddresses: () => [...chain.held, ...devnetOwnAddresses()],
    stalledFees: () =>
      unavailableOnError(async () => {
        const block = await chain.pub.getBlock({ blockTag: 'latest' });
        return { maxFeePerGas: (block.baseFeePerGas ?? 0n) / 2n, maxPriorityFeePerGas: 0n };
      }),
  };
}

async function unavailableOnError<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw e instanceof ChainUnavailable ? e : new ChainUnavailable((e as Error).message);
  }
}

/**
 * anvil_reorg back to the block before the transaction's, to the same height: the new blocks hold the transactions of
 * the old ones, at the same offsets, except this one and every later one of its sender (their nonces follow it). The
 * sender's transactions are then where a real reorg leaves them: out of the chain, for the sender to broadcast again.
 * The sender is a relayer key that signs for every account, so `mayDrop` sees which of its transactions would go.
 */
async function reorgOut(
  chain: EvmChain,
  hash: Hex,
  mayDrop: (sender: string, nonces: number[]) => Promise<boolean>,
): Promise<'dropped' | 'not_mined' | 'final' | 'refused'> {
  const receipt = await chain.pub.getTransactionReceipt({ hash }).catch((e) => {
    if ((e as Error).name === 'TransactionReceiptNotFoundError') return null;
    throw e;
  });
  if (!receipt) return 'not_mined';
  const latest = await chain.pub.getBlockNumber({ cacheTime: 0 });
  const depth = latest - receipt.blockNumber + 1n;
  if (depth >= BigInt(chain.confirmations)) return 'final';
  const sender = getAddress(receipt.from);
  const again: [Hex, number][] = [];
  const dropped: number[] = [];
  for (let n = receipt.blockNumber; n <= latest; n++) {
    const block = await chain.pub.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions) {
      if (getAddress(tx.from) === sender) {
        dropped.push(tx.nonce);
        continue;
      }
      const raw = (await anvilRpc(chain.rpcUrl, 'eth_getRawTransactionByHash', [tx.hash])) as Hex;
      again.push([raw, Number(n - receipt.blockNumber)]);
    }
  }
  if (!(await mayDrop(sender, dropped))) return 'refused';
  await anvilRpc(chain.rpcUrl, 'anvil_reorg', [Number(depth), again]);
  return 'dropped';
}
