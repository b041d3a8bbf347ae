import { Gauge } from 'prom-client';
import { getAddress } from 'viem';
import type { Db } from './db/knex';
import { ping } from './db/knex';
import { gasSpentSince } from './db/ledger';
import { transactionsSince } from './db/chainMonitorsRepo';
import { awaitingFunding } from './db/refundsRepo';
import { failingEndpoints } from './db/webhooks';
import type { EvmChain } from './chain/evm';
import type { ConcurrencyCap } from './http/rateLimit';
import type { Metrics } from './metrics';
import { checkLedger } from './usecases/ledger/check';

// The gauges the operator's alert rules and Grafana dashboard need beside the request and relayer metrics
// (ops/prometheus/paygate-alerts.yml, ops/grafana/paygate.json, docs/alerts.md): whether the database and each
// chain's RPC node answer, the gas each relayer key paid over the last day (its balance divided by it says how many
// days of gas are left), the relayer's transactions of the day by outcome, refunds waiting for funding, webhook
// endpoints failing, how full the fullest long-poll cap is, and the ledger checked against the chain as
// `admin ledger check` does (differences, and each collector's holdings on both sides). Each read runs on scrape,
// cached; a failed read leaves its gauge out of that scrape.

export interface OperatorMetricsSources {
  db: Db;
  /** The chains served (read on each scrape). */
  chains: { all: EvmChain[] };
  longPolls: ConcurrencyCap;
  /** How long a database read is reused by later scrapes. */
  dbCacheMs: number;
  /** How long the ledger check's answer is reused: it reads every holding's balance from the chain. */
  ledgerCheckMs: number;
  /** After how long a relayer transaction not final is replaced (CHAIN_STUCK_AFTER_MS), in ms. */
  stuckAfterMs: number;
}

/** A probe of a dependency answers within this, or counts as down: a scrape never waits on a hung connection. */
const PROBE_TIMEOUT_MS = 3000;

export function addOperatorMetrics(metrics: Metrics, src: OperatorMetricsSources): void {
  const registers = [metrics.registry];
  const { db, chains } = src;
  const probeMs = Math.min(src.dbCacheMs, 1000);
  const dbUp = metrics.cached('paygate_database_up', () => answers(ping(db)), probeMs);
  new Gauge({
    name: 'paygate_database_up',
    help: 'Whether PostgreSQL answered a query from this process at the last scrape (1) or not (0).',
    registers,
    async collect() {
      this.set((await dbUp()) ? 1 : 0);
    },
  });
  const heads = metrics.cached(
    'paygate_rpc_up',
    () => Promise.all(chains.all.map(async (c) => ({ chain: c.caip2, head: await within(c.pub.getBlockNumber({ cacheTime: 0 })) }))),
    probeMs,
  );
  new Gauge({
    name: 'paygate_rpc_up',
    help: "Whether each chain's RPC node answered eth_blockNumber at the last scrape (1) or not (0).",
    labelNames: ['chain'],
    registers,
    async collect() {
      this.reset();
      for (const h of (await heads()) ?? []) this.set({ chain: h.chain }, h.head === undefined ? 0 : 1);
    },
  });
  new Gauge({
    name: 'paygate_rpc_head_block',
    help: "The latest block number each chain's RPC node reported at the last scrape.",
    labelNames: ['chain'],
    registers,
    async collect() {
      this.reset();
      for (const h of (await heads()) ?? []) if (h.head !== undefined) this.set({ chain: h.chain }, Number(h.head));
    },
  });
  new Gauge({
    name: 'paygate_relayer_stuck_after_seconds',
    help: 'After how long a relayer transaction not yet final is replaced with a higher fee (CHAIN_STUCK_AFTER_MS).',
    registers,
    collect() {
      this.set(src.stuckAfterMs / 1000);
    },
  });

  const gas = metrics.cached('paygate_relayer_gas_spent_24h_wei', () => gasSpentSince(db, 24));
  new Gauge({
    name: 'paygate_relayer_gas_spent_24h_wei',
    help: 'Gas each relayer key paid over the last 24 hours (the ledger’s gas journals), in wei.',
    labelNames: ['chain', 'relayer'],
    registers,
    async collect() {
      this.reset();
      for (const g of (await gas()) ?? []) this.set({ chain: g.chainId, relayer: getAddress(g.holder) }, Number(g.wei));
    },
  });

  const txs = metrics.cached('paygate_chain_transactions_24h', () => transactionsSince(db, 24));
  new Gauge({
    name: 'paygate_chain_transactions_24h',
    help: 'Relayer transactions signed over the last 24 hours, by chain, purpose (collect, settle, refund, ...) and status (pending, mined, confirmed, reverted, dropped).',
    labelNames: ['chain', 'purpose', 'status'],
    registers,
    async collect() {
      this.reset();
      for (const t of (await txs()) ?? []) this.set({ chain: t.chainId, purpose: t.purpose, status: t.status }, t.count);
    },
  });

  const refunds = metrics.cached('paygate_refunds_awaiting_funding', () => awaitingFunding(db));
  const fromRefunds = (pick: (r: { count: number; oldestS: number }) => number) =>
    async function (this: Gauge) {
      const r = await refunds();
      this.reset();
      if (r) this.set(pick(r));
    };
  new Gauge({
    name: 'paygate_refunds_awaiting_funding',
    help: 'Refunds in requires_funding: the partner owes the funding payment.',
    registers,
    collect: fromRefunds((r) => r.count),
  });
  new Gauge({
    name: 'paygate_refunds_awaiting_funding_oldest_seconds',
    help: 'How long the oldest refund in requires_funding has waited (0 when none waits).',
    registers,
    collect: fromRefunds((r) => r.oldestS),
  });

  const hooks = metrics.cached('paygate_webhook_endpoints_failing', () => failingEndpoints(db));
  const fromHooks = (pick: (r: { failing: number; longestS: number }) => number) =>
    async function (this: Gauge) {
      const r = await hooks();
      this.reset();
      if (r) this.set(pick(r));
    };
  new Gauge({
    name: 'paygate_webhook_endpoints_failing',
    help: 'Enabled webhook endpoints whose deliveries fail now (failing since their last success).',
    registers,
    collect: fromHooks((r) => r.failing),
  });
  new Gauge({
    name: 'paygate_webhook_endpoint_failing_longest_seconds',
    help: 'How long the endpoint failing longest has been failing (0 when none fails).',
    registers,
    collect: fromHooks((r) => r.longestS),
  });

  new Gauge({
    name: 'paygate_longpoll_fullest_ratio',
    help: 'Per kind of key (credential, ip): the largest share of its concurrent long-poll cap one key holds in this process, 0 to 1.',
    labelNames: ['kind'],
    registers,
    collect() {
      this.reset();
      const full = src.longPolls.fullest();
      for (const kind of ['credential', 'ip']) this.set({ kind }, full.get(kind) ?? 0);
    },
  });

  // Not conclusive while the service has not recorded a relayer transaction mined at the checked block: that chain
  // is left out of the scrape rather than reported as a difference (src/usecases/ledger/check.ts).
  const ledger = metrics.cached('paygate_ledger_differences', () => checkLedger(db, chains.all, { waitMs: 0 }), src.ledgerCheckMs);
  new Gauge({
    name: 'paygate_ledger_differences',
    help: 'Per chain: holdings whose balance on chain differs from the ledger, plus owners’ buckets below zero (admin ledger check).',
    labelNames: ['chain'],
    registers,
    async collect() {
      const r = await ledger();
      this.reset();
      for (const c of r?.chains ?? []) {
        if (c.unrecorded.length) continue;
        const n = r!.differences.filter((d) => d.chainId === c.chainId).length + r!.negative.filter((d) => d.chainId === c.chainId).length;
        this.set({ chain: c.chainId }, n);
      }
    },
  });
  new Gauge({
    name: 'paygate_collector_holding',
    help: 'What each collector (relayer key) holds of each token, in its smallest unit, as the ledger says (source="ledger") and as the chain says (source="chain"), at the ledger check’s block.',
    labelNames: ['chain', 'asset', 'holder', 'source'],
    registers,
    async collect() {
      const r = await ledger();
      this.reset();
      for (const h of r?.compared ?? []) {
        const labels = { chain: h.chainId, asset: h.asset, holder: h.holder };
        this.set({ ...labels, source: 'ledger' }, Number(h.ledger));
        this.set({ ...labels, source: 'chain' }, Number(h.chain));
      }
    },
  });
}

/** Settles within PROBE_TIMEOUT_MS: the value, or undefined when it failed or took longer. */
async function within<T>(p: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), PROBE_TIMEOUT_MS)));
  try {
    return await Promise.race([p.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

const answers = async (p: Promise<unknown>) => (await within(p.then(() => true))) === true;
