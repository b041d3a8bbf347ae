import type { Logger } from '../logger';
import { anvilRpc } from './anvil';

// A development chain in automine makes a block per transaction and none otherwise: at a confirmation depth above 1
// a payment would wait for other people's transactions to bury it. This mines an empty block once the head has not
// moved for `everyMs` while a block among the last `confirmations - 1` holds a transaction, and nothing while the
// chain is idle: a transaction is final about `(confirmations - 1) * everyMs` after it is mined, and until then it
// is mined but not final, the window the test helpers' reorg needs (docs/testmode.md).

export function startDepthMining(rpcUrl: string, confirmations: number, everyMs: number, log: Logger): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> = Promise.resolve();
  let head = -1;
  let since = 0; // when the head was first seen at its height
  const shortOfDepth = async (latest: number): Promise<boolean> => {
    for (let n = latest; n > Math.max(0, latest - (confirmations - 1)); n--) {
      const block = (await anvilRpc(rpcUrl, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])) as { transactions: string[] } | null;
      if (block?.transactions.length) return true;
    }
    return false;
  };
  const step = async () => {
    const latest = Number(BigInt((await anvilRpc(rpcUrl, 'eth_blockNumber', [])) as string));
    if (latest !== head) {
      head = latest;
      since = Date.now();
    } else if (Date.now() - since >= everyMs && (await shortOfDepth(latest))) {
      await anvilRpc(rpcUrl, 'evm_mine', []);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        tick = step()
          .catch((e) => log.debug({ err: e, rpcUrl }, 'devnet depth mining: the chain did not answer'))
          .finally(schedule);
      },
      Math.min(250, everyMs),
    );
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
