import type { Db } from '../../db/knex';
import * as repo from '../../db/webhooks';
import { newId } from '../../domain/ids';
import { unsealOrNull } from '../../domain/sealed';
import { sealedAt, WEBHOOK_PREVIOUS_SECRET, WEBHOOK_SECRET } from '../../db/sealedColumnsRepo';
import { storedVersion } from '../../domain/versions';
import { nextAttemptAt, RetryPolicy } from '../../domain/webhookRetry';
import { webhookHeaders } from '../../domain/webhookSignature';
import { renderEvent } from '../../wire/events';
import { renderHostedEvent } from '../../wire/hosted/event';
import { formatCarries, type SigningEndpoint, type WebhookDelivery } from '../../domain/webhook';
import type { PaymentEvent } from '../../domain/paymentEvent';

/**
 * The delivery policy, in one place (src/jobs/webhooks/workers.ts claims deliveries and runs this for each):
 * - a delivery to a deleted or disabled endpoint is cancelled, never sent;
 * - the body is the event rendered in the endpoint's payload format (ours at its API version, or the hosted
 *   2026-05-18 contract; an event that format has no type for is cancelled, never sent), signed the same way for
 *   both with the endpoint's secret and, while a rotation's overlap lasts, with its previous secret too (receivers
 *   holding either verify it);
 * - a failed attempt is tried again on the retry schedule (src/domain/webhookRetry.ts: exponential backoff
 *   with jitter) until the delivery is older than the retry window, and then the delivery has failed;
 * - an endpoint that has kept failing for `disableAfterMs` is disabled (failures further apart than
 *   `streakGapMs` start a new run: a quiet period is no evidence of an outage); a success ends the run.
 * Times are the database's (the claim's `asOf`, advanced by the time measured since), like the SQL that
 * compares them with now().
 */
export interface DeliveryPolicy {
  retry: RetryPolicy;
  failure: repo.FailurePolicy;
}

export interface DeliveryDeps {
  db: Db;
  dataKey: Buffer;
  policy: DeliveryPolicy;
  send(
    url: string,
    headers: Record<string, string>,
    body: string,
  ): Promise<{ status: number | null; error: string | null; durationMs: number }>;
  /** Records a successful attempt (src/jobs/webhooks/recorder.ts writes them in batches); failures are recorded here. */
  recordSuccess(delivery: WebhookDelivery, outcome: repo.AttemptOutcome): Promise<void>;
}

export type DeliveryResult =
  | { cancelled: true }
  | {
      cancelled: false;
      status: number | null;
      error: string | null;
      durationMs: number;
      /** When the next attempt is due; null when it succeeded or the retry window has closed. */
      nextAttemptAt: Date | null;
      /** The endpoint was disabled by this failure. */
      disabled: boolean;
    };

const UNREADABLE_SECRET =
  'not sent: the signing secret does not open for this endpoint (its data key is not in DATA_ENCRYPTION_KEYS, or it was sealed for another endpoint): add the key, or rotate the secret';

/**
 * The delivery's body in the endpoint's format; null when that format has no such event (its format changed after
 * the event was fanned out to it) or the payment is gone.
 */
async function bodyFor(db: Db, endpoint: SigningEndpoint, event: PaymentEvent): Promise<string | null> {
  if (endpoint.payloadFormat === 'paygate') return JSON.stringify(renderEvent(event, storedVersion(endpoint.apiVersion)));
  if (!formatCarries(endpoint.payloadFormat, event.type)) return null;
  const facts = await repo.hostedFacts(db, event.paymentId, event.version);
  return facts ? JSON.stringify(renderHostedEvent(event, facts)) : null;
}

/** One attempt of a claimed delivery, recorded under its lease. */
export async function attemptDelivery(deps: DeliveryDeps, claimed: repo.Claimed): Promise<DeliveryResult> {
  const { delivery: d, endpoint, event, leaseToken } = claimed;
  const claimedAt = performance.now();
  const dbClock = () => new Date(claimed.asOf.getTime() + (performance.now() - claimedAt));
  const body = endpoint.deletedAt || endpoint.status !== 'enabled' ? null : await bodyFor(deps.db, endpoint, event);
  if (body === null) {
    await repo.cancelDelivery(deps.db, d.id, leaseToken);
    return { cancelled: true };
  }
  const secret = unsealOrNull(deps.dataKey, endpoint.sealedSecret, sealedAt(WEBHOOK_SECRET, endpoint.id));
  const previous =
    endpoint.previousSealedSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > claimed.asOf
      ? unsealOrNull(deps.dataKey, endpoint.previousSealedSecret, sealedAt(WEBHOOK_PREVIOUS_SECRET, endpoint.id))
      : null;
  const attemptedAt = dbClock();
  // A secret that does not open for this endpoint (another key, or copied from another row) signs nothing.
  const r =
    secret === null
      ? { status: null, error: UNREADABLE_SECRET, durationMs: 0 }
      : await deps.send(
          endpoint.url,
          webhookHeaders(previous === null ? [secret] : [secret, previous], event.id, Math.floor(attemptedAt.getTime() / 1000), body),
          body,
        );
  const succeeded = r.error === null;
  const next = succeeded ? null : nextAttemptAt(deps.policy.retry, d.createdAt, d.attempts + 1, dbClock());
  const outcome: repo.AttemptOutcome = {
    leaseToken,
    attemptId: newId('wha'),
    attemptedAt,
    durationMs: r.durationMs,
    responseStatus: r.status,
    error: r.error,
    succeeded,
    nextAttemptAt: next,
  };
  let disabled = false;
  if (succeeded) await deps.recordSuccess(d, outcome);
  else ({ disabled } = await repo.recordAttempt(deps.db, d, outcome, deps.policy.failure));
  return { cancelled: false, status: r.status, error: r.error, durationMs: r.durationMs, nextAttemptAt: next, disabled };
}
