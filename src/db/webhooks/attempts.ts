import type { Knex } from 'knex';
import type { WebhookDelivery } from '../../domain/webhook';
import { Db, knexOf } from '../knex';
import { preparedStatement } from '../prepared';
import { cancelPendingDeliveries } from './endpoints';
import { STILL_PENDING } from './claims';

export interface AttemptOutcome {
  /** The claim's lease token: state is written only while this worker still holds the delivery. */
  leaseToken: string;
  attemptId: string;
  attemptedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
  succeeded: boolean;
  /** For a failure: when to try again, or null to give up. */
  nextAttemptAt: Date | null;
}

/**
 * Records one attempt and its consequences in one transaction: the delivery's new state, and the
 * endpoint's failure streak, disabling it (and cancelling what it still has queued) once the streak is
 * older than `disableAfterMs`. Returns whether the endpoint was disabled now.
 */
export interface FailurePolicy {
  /** A failure run older than this disables the endpoint. */
  disableAfterMs: number;
  /** A failure this long after the previous one starts a new run (a quiet period is no evidence of an outage). */
  streakGapMs: number;
}

export async function recordAttempt(db: Db, d: WebhookDelivery, o: AttemptOutcome, policy: FailurePolicy): Promise<{ disabled: boolean }> {
  const knex = knexOf(db);
  if (o.succeeded) {
    await recordSuccesses(db, [{ delivery: d, outcome: o }]);
    return { disabled: false };
  }
  return knex.transaction(async (trx) => {
    await trx('webhook_attempts').insert({
      id: o.attemptId,
      delivery_id: d.id,
      event_id: d.eventId,
      endpoint_id: d.endpointId,
      attempted_at: o.attemptedAt,
      duration_ms: o.durationMs,
      response_status: o.responseStatus,
      error: o.error,
      succeeded: o.succeeded,
    });
    const status = o.nextAttemptAt ? 'pending' : 'failed';
    // A worker whose lease was taken over (it outlived it) changes nothing: the new holder decides.
    const held = await trx('webhook_deliveries')
      .where({ id: d.id, lease_token: o.leaseToken })
      .whereRaw(STILL_PENDING)
      .update({
        status,
        attempts: trx.raw('attempts + 1'),
        next_attempt_at: status === 'pending' ? o.nextAttemptAt : null,
        // The retry job is scheduled for next_attempt_at: count it as enqueued then, so the rescue leaves it alone.
        locked_until: null,
        lease_token: null,
        enqueued_at: status === 'pending' ? o.nextAttemptAt : null,
        updated_at: trx.fn.now(),
      });
    if (!held) return { disabled: false };
    const { rows } = await trx.raw(
      `
      WITH run AS (
        SELECT id, CASE WHEN failing_since IS NULL OR last_failed_at IS NULL
                          OR last_failed_at < ?::timestamptz - (? * interval '1 millisecond')
                        THEN ?::timestamptz ELSE failing_since END AS since
        FROM webhook_endpoints WHERE id = ? AND deleted_at IS NULL FOR UPDATE)
      UPDATE webhook_endpoints w SET failing_since = run.since, last_failed_at = ?::timestamptz,
        status = CASE WHEN run.since <= now() - (? * interval '1 millisecond') THEN 'disabled' ELSE w.status END
      FROM run WHERE w.id = run.id
      RETURNING w.status, w.failing_since`,
      [o.attemptedAt, policy.streakGapMs, o.attemptedAt, d.endpointId, o.attemptedAt, policy.disableAfterMs],
    );
    const row = rows[0] as { status: string; failing_since: Date } | undefined;
    if (!row || row.status !== 'disabled') return { disabled: false };
    const changed = await trx('webhook_endpoints')
      .where({ id: d.endpointId })
      .whereNull('disabled_at')
      .update({
        disabled_at: trx.fn.now(),
        updated_at: trx.fn.now(),
        disabled_reason: `Every delivery attempt failed since ${row.failing_since.toISOString()}; last error: ${o.error ?? 'unknown'}`,
      });
    if (changed) await cancelPendingDeliveries(trx, d.endpointId);
    return { disabled: changed > 0 };
  });
}

// A function (migration 20261129090000): its plan is made once per connection, by the indexes.
const recordSuccessesStatement = preparedStatement(
  'paygate_webhook_record_successes',
  'SELECT webhook_record_successes(?::text[], ?::text[], ?::text[], ?::text[], ?::timestamptz[], ?::int[], ?::int[], ?::text[])',
);

/**
 * Records successful attempts, any number in one statement (atomic on its own, one commit;
 * webhook_record_successes): each attempt, its delivery succeeded (only while its lease is the one the attempt
 * was made under), and the end of its endpoint's failure run. Endpoints are locked in the order of their ids,
 * so that batches of several processes cannot deadlock on them.
 */
export async function recordSuccesses(db: Db, done: { delivery: WebhookDelivery; outcome: AttemptOutcome }[]): Promise<void> {
  if (done.length === 0) return;
  const col = (f: (x: { delivery: WebhookDelivery; outcome: AttemptOutcome }) => string | number | Date | null) =>
    done.map(f) as Knex.Value;
  await recordSuccessesStatement(db, [
    col((x) => x.outcome.attemptId),
    col((x) => x.delivery.id),
    col((x) => x.delivery.eventId),
    col((x) => x.delivery.endpointId),
    col((x) => x.outcome.attemptedAt),
    col((x) => x.outcome.durationMs),
    col((x) => x.outcome.responseStatus),
    col((x) => x.outcome.leaseToken),
  ]);
}

/** Cancels a claimed delivery whose endpoint can no longer receive it. */
export async function cancelDelivery(db: Db, id: string, leaseToken: string): Promise<void> {
  const knex = knexOf(db);
  await knex('webhook_deliveries')
    .where({ id, lease_token: leaseToken })
    .whereRaw(STILL_PENDING)
    .update({ status: 'cancelled', next_attempt_at: null, locked_until: null, lease_token: null, updated_at: knex.fn.now() });
}

/**
 * Accounts with pending deliveries that are due, unleased, and not handed to a worker lately (a job lost with
 * its process, a lease that ran out, or a delivery that waited for its endpoint's or account's cap while the
 * attempts holding it were in a process that died): the workers claim them with `claimDeliveries`.
 */
export async function strandedAccounts(db: Db, graceMs: number, limit = 200): Promise<string[]> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `
    SELECT DISTINCT account_id FROM webhook_deliveries
    WHERE status = 'pending' AND next_attempt_at <= now()
      AND (locked_until IS NULL OR locked_until < now())
      AND (enqueued_at IS NULL OR enqueued_at < now() - (? * interval '1 millisecond'))
    LIMIT ?`,
    [graceMs, limit],
  );
  return rows.map((r: { account_id: string }) => r.account_id);
}

/** Deliveries waiting for an attempt (the metrics backlog). */
export async function pendingDeliveryCount(db: Db): Promise<number> {
  const knex = knexOf(db);
  const [{ n }] = await knex('webhook_deliveries').where({ status: 'pending' }).count<{ n: string }[]>({ n: '*' });
  return Number(n);
}
