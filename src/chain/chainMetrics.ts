import type { Db } from '../db/knex';
import { Gauge } from 'prom-client';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import { settlementBacklog } from '../db/payments';
import { pendingStats } from '../db/chainMonitorsRepo';
import { countHeldSettlements } from '../db/settlementTransfersRepo';
import type { Chains } from './chains';

// What an operator watches on the relayer, retired keys included (paygate_relayer_retired says which): gas
// left per key (an empty gas wallet stops every payment), transactions waiting, the oldest one's age and those
// the fee limits hold back (stuck nonces), and payments received but not yet settled. Read on scrape, at most
// once per cache period; a relayer under its balance floor is also logged.

export function addChainMetrics(metrics: Metrics, db: Db, chains: Chains, log: Logger, cacheMs: number): void {
  const registers = [metrics.registry];
  const warned = new Set<string>();
  const cache = <T>(read: () => Promise<T>) => {
    let at = -Infinity;
    let last: Promise<T | undefined> | null = null;
    return () => {
      if (last && Date.now() - at < cacheMs) return last;
      at = Date.now();
      last = read().catch((e) => {
        log.warn({ err: (e as Error).message }, 'chain metric read failed');
        return undefined;
      });
      return last;
    };
  };
  const balances = cache(async () => {
    const out: { chainId: string; relayer: string; wei: bigint }[] = [];
    for (const chain of chains.all)
      for (const relayer of chain.held) {
        const wei = await chain.nativeBalance(relayer);
        out.push({ chainId: chain.caip2, relayer, wei });
        const key = `${chain.caip2}/${relayer}`;
        if (wei < chain.balanceFloorWei && !warned.has(key)) {
          warned.add(key);
          log.warn(
            { chainId: chain.caip2, relayer, balanceWei: wei.toString(), floorWei: chain.balanceFloorWei.toString() },
            'relayer balance is under its floor: fund it or payments will stop',
          );
        } else if (wei >= chain.balanceFloorWei) warned.delete(key);
      }
    return out;
  });
  /** A gauge per (chain, relayer), set on scrape from a cached read. */
  const perRelayer = <T>(
    name: string,
    help: string,
    read: () => Promise<T[] | undefined>,
    label: (x: T) => [string, string],
    value: (x: T) => number,
  ) =>
    new Gauge({
      name,
      help,
      labelNames: ['chain', 'relayer'],
      registers,
      async collect() {
        const v = await read();
        this.reset();
        for (const x of v ?? []) {
          const [chain, relayer] = label(x);
          this.set({ chain, relayer }, value(x));
        }
      },
    });
  const byKey = (b: { chainId: string; relayer: string }): [string, string] => [b.chainId, b.relayer];
  perRelayer('paygate_relayer_balance_wei', 'Native balance (gas) of each relayer key, in wei.', balances, byKey, (b) => Number(b.wei));
  perRelayer(
    'paygate_relayer_balance_below_floor',
    '1 when a relayer key holds less gas than its configured floor.',
    balances,
    byKey,
    (b) => (b.wei < (chains.get(b.chainId)?.balanceFloorWei ?? 0n) ? 1 : 0),
  );
  new Gauge({
    name: 'paygate_relayer_retired',
    help: '1 for a retired relayer key (held to finish its work and be swept, given no new option), 0 for a key in use.',
    labelNames: ['chain', 'relayer'],
    registers,
    collect() {
      this.reset();
      for (const chain of chains.all)
        for (const relayer of chain.held) this.set({ chain: chain.caip2, relayer }, chain.isRetired(relayer) ? 1 : 0);
    },
  });
  const pending = cache(() => pendingStats(db));
  const bySender = (p: { chainId: string; sender: string }): [string, string] => [p.chainId, p.sender];
  perRelayer(
    'paygate_relayer_pending_transactions',
    'Signed transactions not yet final, per chain and relayer.',
    pending,
    bySender,
    (p) => p.pending,
  );
  perRelayer(
    'paygate_relayer_oldest_pending_seconds',
    'Age of the oldest transaction not yet final, per chain and relayer.',
    pending,
    bySender,
    (p) => p.oldestAgeS,
  );
  perRelayer(
    'paygate_relayer_fee_limited_transactions',
    'Transactions stuck while the network asks more than they may offer (their replacements used up, or the fee ceiling reached): they wait for fees to fall.',
    pending,
    bySender,
    (p) => p.feeLimited,
  );
  metrics.addCollector('paygate_settlement_backlog', 'Payments received by the collector and not yet settled to the merchant.', () =>
    settlementBacklog(db),
  );
  metrics.addCollector(
    'paygate_settlements_held',
    'Settlements held after repeated failures or by an operator: the merchant is unpaid until one retries them.',
    () => countHeldSettlements(db),
  );
}
