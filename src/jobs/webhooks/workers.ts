import type { Db } from '../../db/knex';
import type PgBoss from 'pg-boss';
import type { WebhookConfig } from '../../config';
import type { Logger } from '../../logger';
import type { ChangeHub } from '../../events/changeHub';
import * as repo from '../../db/webhooks';
import type { WebhookDeliveryRef } from '../../domain/webhook';
import { attemptDelivery, DeliveryDeps } from '../../usecases/webhooks/delivery';
import { successRecorder } from './recorder';
import { createWebhookSender, WebhookSender } from './sender';
import { BATCH, JobData, QUEUE, WebhookJobs, webhookQueue } from './queue';
import { Slots } from './slots';
import { Claimers } from './claimers';
import { Dispatcher } from './dispatcher';

// Webhook delivery, at least once, in any number of processes (the claimers: claimers.ts; dispatch and rescue:
// dispatcher.ts; this file wires them to the job queue and the sender):
//  1. dispatch: queued payment events (payment_event_outbox, written with each change) become one delivery row
//     per subscribed endpoint, in one transaction (woken by payment change notifications, and on a timer);
//  2. the dispatching process hands the new deliveries' accounts to its claimers; a retry (due later) and a
//     redelivery get a pg-boss job, which hands its delivery to its account's claimer. A claimer claims
//     deliveries with a lease, and runs one attempt each (src/usecases/webhooks/delivery.ts: the delivery policy,
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
  const queue = await webhookQueue(boss, cfg);

  /** One claimed delivery: the signed request, then its outcome (a retry due later gets a job). */
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

  let stopped = false;
  const claimers = new Claimers({
    db,
    log,
    slots: new Slots(cfg.maxInFlight),
    caps: { perEndpoint: cfg.maxInFlightPerEndpoint, perAccount: cfg.maxInFlightPerAccount },
    leaseMs,
    attempt,
  });

  // A job only names its delivery to its account's claimer: a slow receiver holds up no other job.
  // Read by the handler and enqueue only once set (a handler run before boss.work returned skips the nudge).
  const workerId: { id?: string } = {};
  workerId.id = await boss.work<JobData>(QUEUE, { pollingIntervalSeconds: 0.5, batchSize: BATCH }, async (jobs) => {
    // pg-boss waits a polling interval after each batch unless notified: a full batch means more are waiting.
    if (jobs.length === BATCH && workerId.id) boss.notifyWorker(workerId.id);
    for (const { data } of jobs) {
      if (stopped) return;
      if (data.accountId) claimers.claim(data.accountId, data.deliveryId);
      else
        await claimers
          .claimLegacy(data.deliveryId)
          .catch((e) =>
            log.warn({ err: (e as Error).message, deliveryId: data.deliveryId }, 'webhook delivery failed; it will be rescued'),
          );
    }
  });
  const enqueue = async (deliveries: WebhookDeliveryRef[]) => {
    await queue.enqueue(deliveries);
    if (workerId.id && deliveries.length) boss.notifyWorker(workerId.id);
  };

  const dispatcher = new Dispatcher(db, log, leaseMs, (accountId) => claimers.claim(accountId));
  const timer = setInterval(() => dispatcher.tick(), cfg.dispatchIntervalMs);
  timer.unref();
  hub.onPaymentChanged(() => dispatcher.kick());
  dispatcher.tick();

  return {
    enqueue,
    eventsWritten: () => dispatcher.kick(),
    stop: async () => {
      stopped = true;
      const claimsEnded = claimers.stop(); // no new claims from here on
      clearInterval(timer);
      await dispatcher.stop(); // a dispatch pass in progress finishes (its jobs are queued before the queue stops)
      await boss.offWork(QUEUE);
      // Attempts started meanwhile (a claim in progress when stop began) are waited for too.
      await claimsEnded;
      sender.close();
    },
  };
}
