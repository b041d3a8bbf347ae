import type { Logger } from '../logger';
import { anvilRpc } from './anvil';

// A development chain in automine makes a block per transaction and none otherwise: at a confirmation depth above 1
// a payment would wait for other people's transactions to bury it. This mines an empty block every `everyMs` while
// a block among the last `confirmations - 1` holds a transaction, and nothing while the chain is idle: each
// transaction is final `confirmations - 1` ticks after it is mined, and until then it is mined but not final, the
// window the test helpers' reorg needs (docs/testmode.md).

export function startDepthMining(rpcUrl: string, confirmations: number, everyMs: number, log: Logger): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> = Promise.resolve();
  const shortOfDepth = async (): Promise<boolean> => {
    const latest = Number(BigInt((await anvilRpc(rpcUrl, 'eth_blockNumber', [])) as string));
    for (let n = latest; n > Math.max(0, latest - (confirmations - 1)); n--) {
      const block = (await anvilRpc(rpcUrl, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])) as { transactions: string[] } | null;
      if (block?.transactions.length) return true;
    }
    return false;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      tick = (async () => {
        try {
          if (await shortOfDepth()) await anvilRpc(rpcUrl, 'evm_mine', []);
        } catch (e) {
          log.debug({ err: e, rpcUrl }, 'devnet depth mining: the chain did not answer');
        }
        schedule();
      })();
    }, everyMs);
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await tick;
    },
  };
}
