import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import type { WebhookConfig } from '../config';
import type { Logger } from '../logger';
import type { ChangeHub } from '../db/changeHub';
import * as repo from '../db/webhooksRepo';
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
//     the job) is enqueued again. The delivery row, not the job, is the truth: a lost job loses nothing
//     and a duplicate job finds the row claimed or not due, and does nothing.

const QUEUE = 'webhook-deliver';
const CONCURRENCY = 32; // requests in flight per process
const BATCH = 50;

export interface WebhookWork {
  /** Hands deliveries created by a request (redelivery) to the workers. */
  enqueue(deliveryIds: string[]): Promise<void>;
}

export interface WebhookJobs extends WebhookWork {
  stop(): Promise<void>;
}

export async function startWebhookJobs(boss: PgBoss, db: Knex, cfg: WebhookConfig, dataKey: Buffer, hub: ChangeHub, log: Logger): Promise<WebhookJobs> {
  const sender: WebhookSender = createWebhookSender(cfg);
  // Long enough to send (bounded by the timeout) and then record under load; a dead worker's lease runs out.
  const leaseMs = cfg.timeoutMs + cfg.leaseMarginMs;
  const failurePolicy = { disableAfterMs: cfg.disableAfterMs, streakGapMs: cfg.retryMaxDelayMs + 60_000 };
  const policy = { baseMs: cfg.retryBaseMs, maxDelayMs: cfg.retryMaxDelayMs, maxAgeMs: cfg.maxAgeMs };
  await boss.createQueue(QUEUE, { name: QUEUE, retryLimit: 0, expireInSeconds: Math.ceil(leaseMs / 1000) + 30 });

  let stopped = false;
  const inflight = new Set<Promise<void>>();
  let slotWaiters: (() => void)[] = [];
  const slot = async () => {
    while (inflight.size >= CONCURRENCY) await new Promise<void>((r) => slotWaiters.push(r));
  };

  let worker: string | undefined;
  const enqueue = async (ids: string[]) => {
    if (ids.length === 0) return;
    await boss.insert(ids.map((id) => ({ name: QUEUE, data: { deliveryId: id } })));
    if (worker) boss.notifyWorker(worker);
  };

  async function deliver(deliveryId: string): Promise<void> {
    const leaseToken = randomUUID();
    const claimed = await repo.claimDelivery(db, deliveryId, leaseMs, leaseToken);
    if (!claimed) return; // not due, already done, or another worker holds it
    const { delivery: d, endpoint, event } = claimed;
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
    if (next) await boss.send(QUEUE, { deliveryId: d.id }, { startAfter: next });
  }

  // The job only starts the attempt: a slow receiver must not hold up the other jobs of its batch.
  worker = await boss.work<{ deliveryId: string }>(QUEUE, { pollingIntervalSeconds: 0.5, batchSize: BATCH }, async (jobs) => {
    // pg-boss waits a polling interval after each batch unless notified: a full batch means more are waiting.
    if (jobs.length === BATCH && worker) boss.notifyWorker(worker);
    for (const { data } of jobs) {
      if (stopped) return;
      await slot();
      if (stopped) return; // stop() may have begun while this job waited for a slot
      const p = deliver(data.deliveryId)
        .catch((e) => log.warn({ err: (e as Error).message, deliveryId: data.deliveryId }, 'webhook delivery failed; it will be rescued'))
        .finally(() => {
          inflight.delete(p);
          const waiters = slotWaiters;
          slotWaiters = [];
          for (const w of waiters) w();
        });
      inflight.add(p);
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
          const { deliveryIds, events } = await repo.dispatchEvents(db, 200);
          await enqueue(deliveryIds);
          if (events < 200) break;
        }
        if (Date.now() - lastRescue > 1000) {
          lastRescue = Date.now();
          await enqueue(await repo.strandedDeliveries(db, leaseMs));
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
      await Promise.allSettled([...inflight]);
      sender.close();
    },
  };
}
