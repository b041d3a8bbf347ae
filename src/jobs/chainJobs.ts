import { randomUUID } from 'node:crypto';
import type { Db } from '../db/knex';
import type PgBoss from 'pg-boss';
import { Gauge, type Registry } from 'prom-client';
import type { Logger } from '../logger';
import type { Chains } from '../chain/chains';
import { ChainUnavailable, type ChainWork } from '../domain/chain';
import { permit2Allowance } from '../chain/permit2Proofs';
import { nativePrice } from '../chain/nativeCoin';
import type { ContractWalletSettings } from '../config/chains';
import { strandedPayments } from '../db/strandedRepo';
import { monitorLease, releaseMonitorLease } from '../db/chainMonitorsRepo';
import { NotYetVisible, settlePayment, submitPayment, type RelayerDeps } from '../usecases/relayer/paymentSteps';
import { authorizationChecker } from '../usecases/gateway/authorizationCheck';
import { monitorChain } from '../usecases/relayer/monitor';
import { sendRefund } from '../usecases/relayer/refundSends';
import { settleOnSchedule } from '../usecases/relayer/scheduledSettlements';
import { releaseReserves } from '../usecases/relayer/reserveReleases';
import { waitingRefunds } from '../db/refundsRepo';
import { Submissions } from '../usecases/relayer/submissions';
import { batches } from '../lib/batches';
import { developmentChain } from '../chain/devnetCheats';
import { blacklistedNow } from '../chain/tokenRefusal';

// Chain work on the PostgreSQL job queue (pg-boss: SKIP LOCKED, so any number of processes work the same
// queues; a job is retried if its process dies). Requests only enqueue. The queues use pg-boss's `short`
// policy: at most one queued job per payment (singletonKey), so the reconciler cannot pile up duplicates
// (on a `standard` queue pg-boss 10 ignores singletonKey). Every step is idempotent anyway: the stored
// transactions and the unique authorization key decide, not the jobs.

const SUBMIT = 'payment-submit';
const SETTLE = 'payment-settle';
const REFUND = 'payment-refund';
/**
 * Chain steps run at once in one process; more wait in the queue. A monitor pass confirms up to 64 collects
 * at once (each then settles) while confirms keep coming: a burst that size stays inline (the queue would
 * add a job insert, a fetch and a completion per step, and the worker runs its batch all at once anyway).
 */
const INLINE_MAX = 128;

interface Job {
  paymentId: string;
  attempt?: number;
}

export interface ChainJobs extends ChainWork {
  /** Steps whose work was lost (its job, or its process): submissions, settlements and refunds found idle, started again. */
  rescueStranded(): Promise<void>;
  /** Scheduled settlements due: their batches formed and sent (src/usecases/relayer/scheduledSettlements.ts). */
  settleScheduled(): Promise<void>;
  /** Refund reserves whose window ended: what is left of them settled on (src/usecases/relayer/reserveReleases.ts). */
  releaseReserves(): Promise<void>;
  stop(): Promise<void>;
}

export interface ChainJobSettings {
  pollIntervalMs: number;
  stuckAfterMs: number;
  /** A reconciled payment has had no progress for this long: its job was lost or its process died. */
  strandedAfterMs: number;
  settlementRetry: RelayerDeps['settlementRetry'];
  /** A settlement schedule's minute, in milliseconds (shorter in tests: SETTLEMENT_SCHEDULE_UNIT_MS). */
  scheduleUnitMs: number;
  submitRetry: RelayerDeps['submitRetry'];
  maxFeeBumps: number;
  fundingMaxPayments: number;
  refundReserve: RelayerDeps['refundReserve'];
  /** False in a process that only serves the API (ROLE=api): steps go to the queue, no worker or monitor runs here. */
  workers: boolean;
  /** Whose ERC-1271 signatures confirm accepts (CONTRACT_WALLETS). */
  contractWallets: ContractWalletSettings;
}

export async function startChainJobs(
  boss: PgBoss,
  db: Db,
  chains: Chains,
  settings: ChainJobSettings,
  log: Logger,
  registry: Registry,
): Promise<ChainJobs> {
  for (const name of [SUBMIT, SETTLE, REFUND])
    await boss.createQueue(name, { name, policy: 'short', retryLimit: 10, retryDelay: 1, retryBackoff: true });
  const workers = new Map<string, string>();
  const send = async (queue: string, data: Job, delayMs = 0) => {
    // A relative delay (seconds), so the queue times it by the database's clock, not this process's.
    await boss.send(queue, data, {
      singletonKey: data.paymentId,
      ...(delayMs ? { startAfter: Math.max(1, Math.round(delayMs / 1000)) } : {}),
    });
    const w = workers.get(queue);
    if (w && !delayMs) boss.notifyWorker(w); // this process's worker now, rather than at its next poll
  };
  // A step runs at once in this process (no queue round trip: that was most of a payment's latency), up to
  // INLINE_MAX at a time; beyond that, or when it must be tried again, it goes to the queue. A step lost with
  // its process is found by the reconciler (rescueStranded, below) after CHAIN_STRANDED_AFTER_MS.
  const inline = new Set<Promise<void>>();
  let stopping = false;
  const startStep = (queue: string, step: (d: RelayerDeps, id: string) => Promise<string | null>, paymentId: string): Promise<void> => {
    if (!settings.workers || inline.size >= INLINE_MAX || stopping) return send(queue, { paymentId });
    const p: Promise<void> = step(deps, paymentId)
      .then(
        (hash) => {
          if (hash) nudgeAll();
        },
        async (e) => {
          if (!(e instanceof NotYetVisible)) log.warn({ err: (e as Error).message, paymentId, queue }, 'chain step failed; will retry');
          await retryLater(queue, { paymentId }).catch((err) =>
            log.warn({ err: (err as Error).message, paymentId }, 'chain step not queued; the reconciler will find it'),
          );
        },
      )
      .finally(() => inline.delete(p));
    inline.add(p);
    return Promise.resolve();
  };
  const startSubmit = (paymentId: string) => startStep(SUBMIT, submitPayment, paymentId);
  const startSettle = (paymentId: string) => startStep(SETTLE, settlePayment, paymentId);
  const startRefund = (paymentId: string) => startStep(REFUND, sendRefund, paymentId);

  const monitors = new Map<string, { wake(): void; stop(): Promise<void> }>(); // by "<caip2>/<relayer>"
  const deps: RelayerDeps = {
    db,
    chains,
    log,
    submissions: new Submissions(db, log),
    stuckAfterMs: settings.stuckAfterMs,
    settlementRetry: settings.settlementRetry,
    submitRetry: settings.submitRetry,
    maxFeeBumps: settings.maxFeeBumps,
    fundingMaxPayments: settings.fundingMaxPayments,
    refundReserve: settings.refundReserve,
    startSettle,
    startSubmit,
    startRefund,
    submitLater: (paymentId, delayMs) => send(SUBMIT, { paymentId }, delayMs),
  };
  const nudgeAll = () => {
    for (const m of monitors.values()) m.wake();
  };

  // An RPC outage or a confirm not yet committed: the same job later, backing off to 30 s, never failing the payment.
  const retryLater = (queue: string, data: Job) => {
    const attempt = (data.attempt ?? 0) + 1;
    return send(queue, { ...data, attempt }, Math.min(30_000, 250 * 2 ** Math.min(attempt, 7)));
  };
  const worker = (queue: string, step: (d: RelayerDeps, id: string) => Promise<string | null>) =>
    boss.work<Job>(queue, { pollingIntervalSeconds: 0.5, batchSize: 50 }, async (jobs) => {
      await Promise.all(
        jobs.map(async ({ data }) => {
          try {
            const hash = await step(deps, data.paymentId);
            if (hash) nudgeAll();
          } catch (e) {
            if (!(e instanceof NotYetVisible))
              log.warn({ err: (e as Error).message, paymentId: data.paymentId, queue }, 'chain step failed; will retry');
            await retryLater(queue, data);
          }
        }),
      );
    });
  if (settings.workers) {
    workers.set(SUBMIT, await worker(SUBMIT, submitPayment));
    workers.set(SETTLE, await worker(SETTLE, settlePayment));
    workers.set(REFUND, await worker(REFUND, sendRefund));
  }

  const holder = randomUUID();
  // Retired keys too: their open transactions are confirmed, replaced or found out like any other.
  for (const chain of settings.workers ? chains.all : [])
    for (const relayer of chain.held) {
      const key = `${chain.caip2}/${relayer}`;
      const lease = monitorLease(db, key, holder, Math.max(10_000, settings.pollIntervalMs * 5));
      monitors.set(
        key,
        startMonitor(
          key,
          async () => {
            if (!(await lease.hold())) return 0;
            return monitorChain(deps, chain, relayer);
          },
          settings.pollIntervalMs,
          log,
        ),
      );
    }

  const reportUnsubmittable = unsubmittableReporter(log, registry);

  return {
    startSubmit,
    startRefund,
    checkAuthorization: authorizationChecker(chains, settings.contractWallets),
    relayerFor: (chainId, seed, mode) => (chains.serves(chainId, mode) ? chains.get(chainId)!.pickRelayer(seed) : null),
    settlingChains: (mode) =>
      chains.all.filter((c) => !mode || chains.serves(c.caip2, mode)).map((c) => ({ chainId: c.caip2, relayers: c.relayers })),
    developmentChain: (chainId) => {
      const chain = chains.get(chainId);
      return chain?.development ? developmentChain(chain) : null;
    },
    fees: (chainId) => {
      const chain = chains.get(chainId);
      if (!chain) throw new ChainUnavailable(`chain ${chainId} is not configured`);
      return chain.fees();
    },
    instanceAddresses: (chainId) => chains.get(chainId)?.held ?? null,
    blacklisted: (chainId, token, account) => {
      const chain = chains.get(chainId);
      if (!chain) throw new ChainUnavailable(`chain ${chainId} is not configured`);
      return blacklistedNow(chain, token, account);
    },
    nativeTerms: async (chainId, currency) => {
      const chain = chains.get(chainId);
      if (!chain?.native) return null;
      const price = await nativePrice(chain, currency);
      return price && { router: chain.native.router, toleranceBps: chain.native.toleranceBps, price };
    },
    permit2Allowance: (chainId, token, owner) => {
      const chain = chains.get(chainId);
      if (!chain) throw new ChainUnavailable(`chain ${chainId} is not configured`);
      return permit2Allowance(chain, token, owner);
    },
    rescueStranded: async () => {
      const { submit, settle, unsubmittable } = await strandedPayments(db, settings.strandedAfterMs / 1000);
      reportUnsubmittable(unsubmittable);
      for (const id of submit) await startSubmit(id);
      for (const id of settle) await startSettle(id);
      for (const id of await waitingRefunds(db, settings.strandedAfterMs / 1000)) await startRefund(id);
    },
    settleScheduled: async () => {
      if ((await settleOnSchedule(deps, settings.scheduleUnitMs)).length) nudgeAll();
    },
    releaseReserves: async () => {
      if ((await releaseReserves(deps)).length) nudgeAll();
    },
    stop: async () => {
      stopping = true;
      await Promise.all([...inline]); // steps in progress finish (or are queued again)
      for (const m of monitors.values()) await m.stop();
      for (const key of monitors.keys()) await releaseMonitorLease(db, key, holder).catch(() => undefined);
      for (const queue of workers.keys()) await boss.offWork(queue);
    },
  };
}

/** Payments an error is logged for, per process, at most (then they are logged once more). */
const MAX_REPORTED = 10_000;

/**
 * A processing payment without its option (stranded before payments.option_id referenced payment_options) cannot
 * be submitted, and no retry changes that: the reconciler counts them in a gauge at every pass and logs an error
 * the first time this process finds each, for an operator to decide (refund or fail it).
 */
function unsubmittableReporter(log: Logger, registry: Registry) {
  const gauge = new Gauge({
    name: 'paygate_payments_unsubmittable',
    help: 'Processing payments the reconciler cannot submit (their option is gone), as its last pass in this process found them.',
    registers: [registry],
  });
  const reported = new Set<string>();
  return ({ count, ids }: { count: number; ids: string[] }) => {
    gauge.set(count);
    if (reported.size > MAX_REPORTED) reported.clear();
    for (const paymentId of ids) {
      if (reported.has(paymentId)) continue;
      reported.add(paymentId);
      log.error(
        { paymentId },
        'a processing payment has no option to submit it from: it cannot reach the chain, and an operator must decide what becomes of it',
      );
    }
  };
}

/**
 * Runs `tick` every interval (sooner when woken, faster while transactions are open); one tick at a time, and
 * wake-ups during a tick make one more tick right after it (lib/batches.ts).
 */
function startMonitor(chainId: string, tick: () => Promise<number>, intervalMs: number, log: Logger) {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void ticks(), ms);
    timer.unref();
  };
  const ticks = batches(async (wakes: void[]) => {
    if (timer) clearTimeout(timer);
    if (!stopped) {
      try {
        await tick();
      } catch (e) {
        log.warn({ chainId, err: (e as Error).message }, 'chain monitor pass failed; will retry');
      }
    }
    schedule(intervalMs);
    return wakes;
  });
  schedule(intervalMs);
  return {
    wake: () => schedule(0),
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await ticks.idle();
    },
  };
}
