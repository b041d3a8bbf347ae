import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/knex';
import type PgBoss from 'pg-boss';
import type { WebhookConfig } from '../../config';
import type { Logger } from '../../logger';
import type { ChangeHub } from '../../events/changeHub';
import * as repo from '../../db/webhooks';
import type { WebhookDeliveryRef } from '../../domain/webhook';
import { attemptDelivery, DeliveryDeps } from '../../usecases/webhookDelivery';
import { successRecorder } from './recorder';
import { createWebhookSender, WebhookSender } from './sender';
import { batches } from '../../lib/batches';
import { BATCH, JobData, QUEUE, WebhookJobs, webhookQueue } from './queue';
import { Slots } from './slots';

// Webhook delivery, at least once, in any number of processes:
//  1. dispatch: queued payment events (payment_event_outbox, written with each change) become one delivery row
//     per subscribed endpoint, in one transaction (woken by payment change notifications, and on a timer);
//  2. the dispatching process hands the new deliveries' accounts to its claimers; a retry (due later) and a
//     redelivery get a pg-boss job, which hands its delivery to its account's claimer. A claimer claims
//     deliveries with a lease, and runs one attempt each (src/usecases/webhookDelivery.ts: the delivery policy,
//     which signs, sends, and records the attempt and the next due time);
//  3. rescue: a due delivery with no live job or lease (its process died mid-attempt, or before sending
//     the job; a new delivery beyond its dispatching process's slots) is claimed, by any process. The delivery
//     row, not the job, is the truth: a lost job loses nothing and a duplicate job finds the row claimed or not
//     due, and does nothing. (A job per new delivery cost more database work than its delivery's attempt.)
//
// Fairness: a slow partner must not take every delivery slot. Attempts in flight are capped per endpoint
// and per account across all processes: a claim counts the account's leases in force, under the account's
// lock in the database, and takes nothing beyond the caps. A delivery at its cap is not claimed and holds
// no slot: it waits, pending and unleased, and is claimed when one of its account's attempts ends (in
// whichever process), least busy endpoint first, due first. Other partners' deliveries go on meanwhile.
// Each process also has maxInFlight slots in all, handed out first come, first served.
//
// Claims are per account and in batches (as many as the account has room for), one at a time per process:
// claims of an account take turns on its lock anyway, so this keeps them from queueing there on pool
// connections, and the attempts that end during a claim's round trip are served together by the next one.

/** Deliveries named by jobs that a claimer remembers per account; beyond, the database's queue has them. */
const MAX_NAMED = 500;
/** Claims of one account under way at once in a process (they take turns on its lock in the database). */
const MAX_CLAIMS = 1;
/** Dispatch passes asked for by changes start at most this often (the timer's passes come on top). */
const KICK_GAP_MS = 10;
/**
 * Deliveries this process creates before it refreshes the table's statistics (repo.analyzeDeliveries: a
 * backlog is building, and the claims' plans were made when pending deliveries were rare), at most once per
 * ANALYZE_GAP_MS. With the old statistics a claim on a backlog costs ten times more (docs/performance.md).
 */
const ANALYZE_AFTER = 1000;
const ANALYZE_GAP_MS = 10_000;
/** An account's claimer in this process: what jobs named, and the claims under way. */
interface Claimer {
  named: Set<string>;
  /** Claims under way, and the deliveries they asked for together. */
  calls: number;
  asking: number;
  /** A call found no room or too many claims under way: the next claim to end calls again. */
  again: boolean;
}
export async function startWebhookJobs(
  boss: PgBoss,
  db: Db,
  cfg: WebhookConfig,
  dataKey: Buffer,
  hub: ChangeHub,
  log: Logger,
): Promise<WebhookJobs> {
  const sender: WebhookSender = createWebhookSender(cfg);
  // Long enough to send (bounded by the timeout) and then record under load; a dead worker's lease runs out.
  const leaseMs = cfg.timeoutMs + cfg.leaseMarginMs;
  const deliveryDeps: DeliveryDeps = {
    db,
    dataKey,
    send: sender.send,
    recordSuccess: successRecorder(db),
    policy: {
      retry: { baseMs: cfg.retryBaseMs, maxDelayMs: cfg.retryMaxDelayMs, maxAgeMs: cfg.maxAgeMs },
      failure: { disableAfterMs: cfg.disableAfterMs, streakGapMs: cfg.retryMaxDelayMs + 60_000 },
    },
  };
  const caps: repo.InFlightCaps = { perEndpoint: cfg.maxInFlightPerEndpoint, perAccount: cfg.maxInFlightPerAccount };
  const queue = await webhookQueue(boss, cfg);

  let stopped = false;
  const slots = new Slots(cfg.maxInFlight);
  /** Attempts (each holding a slot), and claims under way: stop() waits for all of them. */
  const inflight = new Set<Promise<void>>();
  const claiming = new Set<Promise<void>>();
  /** This process's attempts in flight per account (the room a claim asks for is the cap minus these). */
  const attempts = new Map<string, number>();
  const countAttempt = (accountId: string, d: 1 | -1) => {
    const n = (attempts.get(accountId) ?? 0) + d;
    if (n > 0) attempts.set(accountId, n);
    else attempts.delete(accountId);
  };

  let worker: string | undefined;
  const enqueue = async (deliveries: WebhookDeliveryRef[]) => {
    await queue.enqueue(deliveries);
    if (worker && deliveries.length) boss.notifyWorker(worker);
  };

  /** Runs one claimed delivery's attempt in a slot the caller took, tracked until it gives the slot back. */
  function start(claimed: repo.Claimed): void {
    countAttempt(claimed.delivery.accountId, 1);
    const p = attempt(claimed).finally(() => {
      inflight.delete(p);
      slots.release();
      countAttempt(claimed.delivery.accountId, -1);
      // A place of the account's share is free: its next delivery, if one waits (in this or another process).
      claim(claimed.delivery.accountId);
    });
    inflight.add(p);
  }

  /** One claimed delivery: the signed request, then its outcome. */
  async function attempt(claimed: repo.Claimed): Promise<void> {
    const { delivery: d, endpoint, event } = claimed;
    try {
      const result = await attemptDelivery(deliveryDeps, claimed);
      if (result.cancelled) return;
      const next = result.nextAttemptAt;
      log.info(
        {
          deliveryId: d.id,
          eventId: event.id,
          endpointId: endpoint.id,
          attempt: d.attempts + 1,
          status: result.status,
          error: result.error,
          ms: result.durationMs,
          nextAttemptAt: next,
        },
        'webhook attempt',
      );
      if (result.disabled) log.warn({ endpointId: endpoint.id }, 'webhook endpoint disabled after persistent failure');
      if (next)
        await boss.send(QUEUE, { deliveryId: d.id, endpointId: d.endpointId, accountId: d.accountId } satisfies JobData, {
          startAfter: next,
        });
    } catch (e) {
      log.warn({ err: (e as Error).message, deliveryId: d.id }, 'webhook delivery failed; it will be rescued');
    }
  }

  // The account's claimer. A claim asks for the room the account has in this process (its cap minus its
  // attempts here, minus what claims under way asked for); claims overlap (up to MAX_CLAIMS), so an attempt
  // ending during a claim's round trip does not wait for it. A call that finds no room or too many claims
  // under way is remembered (`again`) and served when one ends.
  // Not lib/batches: what a claim takes is the account's room when it starts, and a call without room waits for an attempt to end.
  const claimers = new Map<string, Claimer>();
  function claim(accountId: string, deliveryId?: string): void {
    if (stopped) return;
    let c = claimers.get(accountId);
    if (!c) claimers.set(accountId, (c = { named: new Set(), calls: 0, asking: 0, again: false }));
    if (deliveryId && c.named.size < MAX_NAMED) c.named.add(deliveryId);
    const room = caps.perAccount - (attempts.get(accountId) ?? 0) - c.asking;
    if (room <= 0 || c.calls >= MAX_CLAIMS) {
      // An attempt of the account ending here, or a claim under way, calls again (named deliveries wait).
      c.again = true;
      return;
    }
    c.calls++;
    const claimer = c;
    const p = claimRound(accountId, claimer, room)
      .catch((e) => {
        log.warn({ err: (e as Error).message, accountId }, 'webhook claim failed; the rescue will try again');
        return false;
      })
      .then((full) => {
        claiming.delete(p);
        claimer.calls--;
        // All it asked for: there may be more. Otherwise only if someone called meanwhile.
        if (full || claimer.again) {
          claimer.again = false;
          claim(accountId);
        } else if (claimer.calls === 0 && claimer.named.size === 0 && claimers.get(accountId) === claimer) {
          claimers.delete(accountId);
        }
      });
    claiming.add(p);
  }

  /** One claim of up to `room` deliveries of the account; true when it got all it asked for. */
  async function claimRound(accountId: string, c: Claimer, room: number): Promise<boolean> {
    c.asking += room;
    let got = 0;
    let claimed: repo.Claimed[] = [];
    try {
      got = slots.tryAcquire(room);
      if (got === 0) {
        await slots.acquire();
        got = 1 + slots.tryAcquire(room - 1);
      }
      // As many named deliveries as the claim may take: each costs a lookup under the account's claim lock,
      // and most of a backlog's are the due deliveries the claim finds anyway. The others wait for the next claim.
      const named: string[] = [];
      for (const id of c.named) {
        if (named.length >= got) break;
        named.push(id);
        c.named.delete(id);
      }
      if (!stopped) claimed = await repo.claimDeliveries(db, accountId, named, got, leaseMs, caps);
    } finally {
      c.asking -= room;
      for (let i = claimed.length; i < got; i++) slots.release();
    }
    for (const one of claimed) start(one);
    // Fewer than asked: the caps (here or in another process) or nothing due. Named deliveries not taken are
    // at a cap, held, done or not due: a later claim of the account finds them when it can.
    return got > 0 && claimed.length === got;
  }

  /** A job from before the caps (no account named): claimed on its own, within the caps. */
  async function claimLegacy(deliveryId: string): Promise<void> {
    await slots.acquire();
    let claimed: repo.Claimed | undefined;
    try {
      if (!stopped) claimed = await repo.claimDelivery(db, deliveryId, leaseMs, randomUUID(), caps);
    } finally {
      if (!claimed) slots.release();
    }
    if (claimed) start(claimed);
  }

  // A job only names its delivery to its account's claimer: a slow receiver holds up no other job.
  worker = await boss.work<JobData>(QUEUE, { pollingIntervalSeconds: 0.5, batchSize: BATCH }, async (jobs) => {
    // pg-boss waits a polling interval after each batch unless notified: a full batch means more are waiting.
    if (jobs.length === BATCH && worker) boss.notifyWorker(worker);
    for (const { data } of jobs) {
      if (stopped) return;
      if (data.accountId) claim(data.accountId, data.deliveryId);
      else
        await claimLegacy(data.deliveryId).catch((e) =>
          log.warn({ err: (e as Error).message, deliveryId: data.deliveryId }, 'webhook delivery failed; it will be rescued'),
        );
    }
  });

  // Dispatch and rescue run on a timer, whenever a payment changes and when this process creates a payment;
  // one pass at a time per process (lib/batches.ts): passes asked for while one runs make one more pass after it.
  // One asked for by a change starts at most KICK_GAP_MS after the last one started, so that a stream of changes
  // costs a bounded number of passes (each takes every undispatched event) and a single change waits for no timer.
  let lastRescue = 0;
  let lastStart = 0;
  let kickTimer: NodeJS.Timeout | null = null;
  let createdSinceAnalyze = 0;
  let lastAnalyze = -Infinity;
  let analyzing: Promise<void> | null = null;
  function countCreated(deliveries: number): void {
    createdSinceAnalyze += deliveries;
    if (createdSinceAnalyze < ANALYZE_AFTER || analyzing || Date.now() - lastAnalyze < ANALYZE_GAP_MS) return;
    createdSinceAnalyze = 0;
    lastAnalyze = Date.now();
    // Beside the dispatch, not in its way: claims go on meanwhile, on their old plans until it ends.
    analyzing = repo
      .analyzeDeliveries(db)
      .catch((e) => log.warn({ err: (e as Error).message }, 'webhook deliveries: ANALYZE failed'))
      .finally(() => (analyzing = null));
  }
  const pass = batches(async (asks: void[]) => {
    lastStart = Date.now();
    if (!stopped) await dispatchAndRescue();
    return asks;
  });
  function kick(): void {
    if (stopped || kickTimer) return;
    const wait = lastStart + KICK_GAP_MS - Date.now();
    if (wait <= 0) {
      void pass();
      return;
    }
    kickTimer = setTimeout(() => {
      kickTimer = null;
      if (!stopped) void pass();
    }, wait);
    kickTimer.unref();
  }
  async function dispatchAndRescue(): Promise<void> {
    try {
      for (;;) {
        const { accounts, more, deliveries } = await repo.dispatchEvents(db, 200);
        countCreated(deliveries);
        for (const accountId of accounts) claim(accountId);
        if (!more) break;
      }
      if (Date.now() - lastRescue > 1000) {
        lastRescue = Date.now();
        for (const accountId of await repo.strandedAccounts(db, leaseMs)) claim(accountId);
      }
    } catch (e) {
      log.warn({ err: (e as Error).message }, 'webhook dispatch failed; retrying on the next tick');
    }
  }
  const timer = setInterval(() => void pass(), cfg.dispatchIntervalMs);
  timer.unref();
  hub.onPaymentChanged(kick);
  void pass();

  return {
    enqueue,
    eventsWritten: kick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      if (kickTimer) clearTimeout(kickTimer);
      await pass.idle(); // a dispatch pass in progress finishes (its jobs are queued before the queue stops)
      await analyzing;
      await boss.offWork(QUEUE);
      // Attempts started meanwhile (a claim in progress when stop began) are waited for too.
      while (inflight.size || claiming.size) await Promise.allSettled([...inflight, ...claiming]);
      sender.close();
    },
  };
}
