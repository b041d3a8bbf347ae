import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import type { WebhookConfig } from '../config';
import type { Logger } from '../logger';
import type { ChangeHub } from '../db/changeHub';
import * as repo from '../db/webhooksRepo';
import type { DeliveryRef } from '../db/webhooksRepo';
import { newId } from '../domain/ids';
import { unseal } from '../domain/sealed';
import { webhookHeaders } from '../domain/webhookSignature';
import { nextAttemptAt } from '../domain/webhookRetry';
import { renderEvent } from '../usecases/webhookEvents';
import { createWebhookSender, WebhookSender } from './webhookSender';

// Webhook delivery, at least once, in any number of processes:
//  1. dispatch: undispatched payment_events (the outbox the state changes write) become one delivery row
//     per subscribed endpoint, in one transaction (woken by payment change notifications, and on a timer);
//  2. each due delivery gets a pg-boss job; the job claims the row with a lease, makes one signed HTTP
//     attempt, and records the attempt and the next due time (backoff with jitter) in one transaction;
//  3. rescue: a due delivery with no live job or lease (its process died mid-attempt, or before sending
//     the job) is claimed again. The delivery row, not the job, is the truth: a lost job loses nothing
//     and a duplicate job finds the row claimed or not due, and does nothing.
//
// Fairness: a slow partner must not take every delivery slot. Attempts in flight are capped per endpoint
// and per account across all processes (a claim counts the account's leases in force, under the account's
// claim lock), and per process (maxInFlight slots). A delivery whose endpoint or account is at its cap is
// not claimed and holds no slot: its job ends and the row waits, pending and unleased, until one of the
// account's attempts ends; that worker then claims the account's next due delivery (claimNextDelivery),
// from its least busy endpoint. Other partners' jobs go on meanwhile. Slots are handed out first come,
// first served.

const QUEUE = 'webhook-deliver';
const BATCH = 50;

interface JobData {
  deliveryId: string;
  /** Absent in jobs queued before the caps existed: then only the claim decides. */
  endpointId?: string;
  accountId?: string;
}

export interface WebhookWork {
  /** Hands deliveries created by a request (redelivery) to the workers. */
  enqueue(deliveries: DeliveryRef[]): Promise<void>;
}

export interface WebhookJobs extends WebhookWork {
  stop(): Promise<void>;
}

/** Slots handed out in the order they were asked for. */
class Slots {
  private free: number;
  private waiters: (() => void)[] = [];
  constructor(size: number) {
    this.free = size;
  }
  acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((r) => this.waiters.push(r));
  }
  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.free++;
  }
}

/** Attempts this process has in flight, per key (an endpoint's or an account's id). */
class Counts {
  private n = new Map<string, number>();
  get(key: string): number {
    return this.n.get(key) ?? 0;
  }
  add(key: string, d: 1 | -1): void {
    const v = this.get(key) + d;
    if (v > 0) this.n.set(key, v);
    else this.n.delete(key);
  }
}

export async function startWebhookJobs(boss: PgBoss, db: Knex, cfg: WebhookConfig, dataKey: Buffer, hub: ChangeHub, log: Logger): Promise<WebhookJobs> {
  const sender: WebhookSender = createWebhookSender(cfg);
  // Long enough to send (bounded by the timeout) and then record under load; a dead worker's lease runs out.
  const leaseMs = cfg.timeoutMs + cfg.leaseMarginMs;
  const failurePolicy = { disableAfterMs: cfg.disableAfterMs, streakGapMs: cfg.retryMaxDelayMs + 60_000 };
  const policy = { baseMs: cfg.retryBaseMs, maxDelayMs: cfg.retryMaxDelayMs, maxAgeMs: cfg.maxAgeMs };
  const caps: repo.InFlightCaps = { perEndpoint: cfg.maxInFlightPerEndpoint, perAccount: cfg.maxInFlightPerAccount };
  await boss.createQueue(QUEUE, { name: QUEUE, retryLimit: 0, expireInSeconds: Math.ceil(leaseMs / 1000) + 30 });

  let stopped = false;
  const slots = new Slots(cfg.maxInFlight);
  /** Everything that holds a slot: stop() waits for all of it. */
  const inflight = new Set<Promise<void>>();
  const perEndpoint = new Counts();
  const perAccount = new Counts();
  const atLocalCap = (endpointId: string, accountId: string) => perEndpoint.get(endpointId) >= caps.perEndpoint || perAccount.get(accountId) >= caps.perAccount;

  let worker: string | undefined;
  const enqueue = async (deliveries: DeliveryRef[]) => {
    if (deliveries.length === 0) return;
    await boss.insert(deliveries.map((d) => ({ name: QUEUE, data: { deliveryId: d.id, endpointId: d.endpoint_id, accountId: d.account_id } satisfies JobData })));
    if (worker) boss.notifyWorker(worker);
  };

  /** Runs `work` holding a slot (taken by the caller), tracked until it releases it. */
  function holding(work: () => Promise<void>): void {
    const p = work().finally(() => {
      inflight.delete(p);
      slots.release();
    });
    inflight.add(p);
  }

  /** One claimed delivery: the signed request, then its outcome; the slot is the caller's. */
  async function attempt(claimed: repo.Claimed, leaseToken: string): Promise<void> {
    const { delivery: d, endpoint, event } = claimed;
    perEndpoint.add(d.endpoint_id, 1);
    perAccount.add(d.account_id, 1);
    try {
      // The database's clock, advanced by the time measured here since the claim: the expiry of the previous
      // secret and the retry window are judged by it, like the SQL that compares these times with now().
      const claimedAt = performance.now();
      const dbClock = () => new Date(claimed.asOf.getTime() + (performance.now() - claimedAt));
      if (endpoint.deleted_at || endpoint.status !== 'enabled') {
        await repo.cancelDelivery(db, d.id, leaseToken);
        return;
      }
      const body = JSON.stringify(renderEvent(event, endpoint.api_version));
      const secrets = [unseal(dataKey, endpoint.secret)];
      if (endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > claimed.asOf) {
        secrets.push(unseal(dataKey, endpoint.previous_secret));
      }
      const attemptedAt = dbClock();
      const headers = webhookHeaders(secrets, event.id, Math.floor(attemptedAt.getTime() / 1000), body);
      const r = await sender.send(endpoint.url, headers, body);
      const succeeded = r.error === null;
      const next = succeeded ? null : nextAttemptAt(policy, d.created_at, d.attempts + 1, dbClock());
      const { disabled } = await repo.recordAttempt(db, d, {
        leaseToken, attemptId: newId('wha'), attemptedAt, durationMs: r.durationMs, responseStatus: r.status, error: r.error, succeeded, nextAttemptAt: next,
      }, failurePolicy);
      log.info({ deliveryId: d.id, eventId: event.id, endpointId: endpoint.id, attempt: d.attempts + 1, status: r.status, error: r.error, ms: r.durationMs, nextAttemptAt: next }, 'webhook attempt');
      if (disabled) log.warn({ endpointId: endpoint.id }, 'webhook endpoint disabled after persistent failure');
      if (next) await boss.send(QUEUE, { deliveryId: d.id, endpointId: d.endpoint_id, accountId: d.account_id } satisfies JobData, { startAfter: next });
    } catch (e) {
      log.warn({ err: (e as Error).message, deliveryId: d.id }, 'webhook delivery failed; it will be rescued');
    } finally {
      perEndpoint.add(d.endpoint_id, -1);
      perAccount.add(d.account_id, -1);
      // A place of the account's share is free: its next delivery, if one waits (in this or another process).
      pump(d.account_id);
    }
  }

  /** A job's delivery, in a slot already taken: claimed within the caps, or left to wait holding nothing. */
  async function claimAndAttempt(deliveryId: string): Promise<void> {
    const leaseToken = randomUUID();
    const claimed = await repo.claimDelivery(db, deliveryId, leaseMs, leaseToken, caps);
    if (claimed) await attempt(claimed, leaseToken);
    // else: not due, done, held by another worker, or its endpoint or account is at its cap (it waits for pump)
  }

  // Claims an account's waiting deliveries, one slot at a time, while the caps allow. One pump per account at
  // a time; an attempt ending meanwhile makes it look once more.
  const pumps = new Map<string, { again: boolean }>();
  function pump(accountId: string): void {
    if (stopped) return;
    const running = pumps.get(accountId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    pumps.set(accountId, state);
    void (async () => {
      try {
        for (;;) {
          state.again = false;
          const started = await pumpOne(accountId);
          if (!started && !state.again) break;
        }
      } catch (e) {
        log.warn({ err: (e as Error).message, accountId }, 'webhook claim failed; the rescue will try again');
      } finally {
        pumps.delete(accountId);
      }
    })();
  }
  async function pumpOne(accountId: string): Promise<boolean> {
    if (stopped || perAccount.get(accountId) >= caps.perAccount) return false;
    await slots.acquire();
    if (stopped) {
      slots.release();
      return false;
    }
    const leaseToken = randomUUID();
    let claimed: repo.Claimed | undefined;
    try {
      claimed = await repo.claimNextDelivery(db, accountId, leaseMs, leaseToken, caps);
    } catch (e) {
      slots.release();
      throw e;
    }
    if (!claimed) {
      slots.release();
      return false;
    }
    holding(() => attempt(claimed, leaseToken));
    return true;
  }

  // The job only starts the attempt: a slow receiver must not hold up the other jobs of its batch.
  worker = await boss.work<JobData>(QUEUE, { pollingIntervalSeconds: 0.5, batchSize: BATCH }, async (jobs) => {
    // pg-boss waits a polling interval after each batch unless notified: a full batch means more are waiting.
    if (jobs.length === BATCH && worker) boss.notifyWorker(worker);
    for (const { data } of jobs) {
      if (stopped) return;
      // At its cap in this process alone: the claim would be refused, so it waits (holding nothing) for pump.
      if (data.endpointId && data.accountId && atLocalCap(data.endpointId, data.accountId)) continue;
      await slots.acquire();
      if (stopped) { // stop() may have begun while this job waited for a slot
        slots.release();
        return;
      }
      holding(() => claimAndAttempt(data.deliveryId)
        .catch((e) => log.warn({ err: (e as Error).message, deliveryId: data.deliveryId }, 'webhook delivery failed; it will be rescued')));
    }
  });

  // Dispatch and rescue run on a timer and whenever a payment changes; one pass at a time per process.
  let running: Promise<void> | null = null;
  let again = false;
  let lastRescue = 0;
  function pass(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = passes().finally(() => (running = null));
    return running;
  }
  async function passes(): Promise<void> {
    try {
      do {
        again = false;
        for (;;) {
          const { deliveries, events } = await repo.dispatchEvents(db, 200);
          await enqueue(deliveries);
          if (events < 200) break;
        }
        if (Date.now() - lastRescue > 1000) {
          lastRescue = Date.now();
          for (const accountId of await repo.strandedAccounts(db, leaseMs)) pump(accountId);
        }
      } while (again && !stopped);
    } catch (e) {
      log.warn({ err: (e as Error).message }, 'webhook dispatch failed; retrying on the next tick');
    }
  }
  const timer = setInterval(() => void pass(), cfg.dispatchIntervalMs);
  timer.unref();
  hub.onPaymentChanged(() => {
    if (!stopped) void pass();
  });
  void pass();

  return {
    enqueue,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running; // a dispatch pass in progress finishes (its jobs are queued before the queue stops)
      await boss.offWork(QUEUE);
      // Attempts started meanwhile (a claim in progress when stop began) are waited for too.
      while (inflight.size) await Promise.allSettled([...inflight]);
      sender.close();
    },
  };
}
