import type { Rng } from './rng';
import type { SoakStack } from './stack';

// The faults a soak injects, from a schedule made from its seed before it starts: every kind once in a seeded
// order, then kinds at random, one at a time, each followed by a quiet gap. A fault's parameters (how long,
// how deep, which process) come from the same seed, so a seed replays the same schedule; what the load does
// meanwhile is not replayed (it depends on timing).

export const FAULT_KINDS = [
  'kill9',
  'postgresDown',
  'rpcDown',
  'receiptsHidden',
  'rpcLatency',
  'reorg',
  'mempoolDrop',
  'tokenPause',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  kind: FaultKind;
  /** Seconds after the load starts. */
  atS: number;
  /** How long it lasts (ms), for the faults that last. */
  ms: number;
  /** kill9: which process; reorg: how many blocks. */
  n: number;
}

export function schedule(rng: Rng, loadS: number): Fault[] {
  const out: Fault[] = [];
  let at = rng.int(3, 6);
  const kinds = rng.shuffle(FAULT_KINDS);
  while (at < loadS - 8) {
    const kind = kinds.shift() ?? rng.pick(FAULT_KINDS);
    const ms = rng.int(2500, 6000);
    out.push({ kind, atS: at, ms, n: kind === 'reorg' ? rng.int(1, 2) : rng.int(0, 1) });
    at += Math.ceil(ms / 1000) + rng.int(2, 6);
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Injects one fault and returns once it is over (and, for a killed process, once its replacement listens). */
export async function inject(stack: SoakStack, f: Fault): Promise<string> {
  switch (f.kind) {
    case 'kill9': {
      const i = f.n % stack.processes.length;
      await stack.killProcess(i);
      await sleep(Math.min(f.ms, 3000));
      await stack.restartProcess(i);
      return `process ${i} killed, restarted`;
    }
    case 'postgresDown':
      await stack.pg.halt();
      await sleep(f.ms);
      await stack.pg.resume();
      return `PostgreSQL stopped ${f.ms} ms`;
    case 'rpcDown':
      stack.proxy.down();
      await sleep(f.ms);
      stack.proxy.up();
      return `RPC unreachable ${f.ms} ms`;
    case 'receiptsHidden':
      // Long enough for the relayer to find its transactions stuck, replace them and hear "nonce too low".
      stack.proxy.hide((method) => method === 'eth_getTransactionReceipt');
      await sleep(f.ms * 4);
      stack.proxy.hide(null);
      return `receipts hidden ${f.ms * 4} ms`;
    case 'rpcLatency':
      stack.proxy.delay(Math.round(f.ms / 5));
      await sleep(f.ms * 2);
      stack.proxy.delay(0);
      return `RPC latency ${Math.round(f.ms / 5)} ms for ${f.ms * 2} ms`;
    case 'reorg': {
      await stack.chain.rpc('anvil_reorg', [f.n, []]);
      // A token pause is a fault of its own, one block long: a reorg must not make it last to the end.
      const unpaused = await stack.chain.unpauseIfPaused();
      return `reorg of ${f.n} block(s)${unpaused ? ', which took the unpause of a token pause out: unpaused again' : ''}`;
    }
    case 'mempoolDrop': {
      // A relayer transaction waiting in the pool is dropped by the node (evicted, or lost with a restart).
      const dropped = await stack.chain.dropRelayerTransaction(stack.relayers);
      return dropped ? `dropped ${dropped} from the mempool` : 'nothing in the mempool to drop';
    }
    case 'tokenPause':
      await stack.chain.pauseOneBlock();
      return 'USDC paused for one block';
  }
}
