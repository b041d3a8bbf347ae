import type { Knex } from 'knex';
import { readAt } from './clock';
import { newId } from '../domain/ids';
import type { PaymentEvent, PaymentEventRecord } from '../domain/paymentEvent';
import type { Snapshot } from '../wire/2026-02-19.preview/event';
import type {
  NewWebhookEndpoint,
  SigningEndpoint,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointChanges,
  WebhookEventType,
} from '../domain/webhook';
import { Db, knexOf, Tx } from './knex';
import { preparedStatement } from './prepared';

// Webhook endpoints, the fan-out of payment events into deliveries, and the attempts of each delivery.
// Every multi-row change is one statement or one transaction, and every claim is conditional, so any
// number of processes may dispatch and deliver at once.

interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  description: string | null;
  enabled_events: string[];
  api_version: string;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  disabled_at: Date | null;
  secret: Buffer;
  previous_secret: Buffer | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  last_failed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

interface EventRow {
  id: string;
  payment_id: string;
  account_id: string;
  type: WebhookEventType;
  version: number;
  // SHIM(event-snapshot): events stored before migration 20261127090100 have only this snapshot (docs/upgrading.md).
  /** The 2026-02-19.preview snapshot; no longer written (migration 20261201090100). */
  data: Snapshot;
  /** Version-neutral; null for events stored before migration 20261127090100 (read from `data`). */
  record: PaymentEventRecord | null;
  created_at: Date;
}

const toEvent = (r: EventRow): PaymentEvent => ({
  id: r.id,
  paymentId: r.payment_id,
  accountId: r.account_id,
  type: r.type,
  version: r.version,
  record: r.record ?? recordOf(r.data),
  createdAt: r.created_at,
});

// SHIM(event-snapshot): the record of an event stored before `record` existed, from its snapshot (every fact of
// it is there). Goes once a migration has filled `record` for every event (docs/upgrading.md).
function recordOf(data: Snapshot): PaymentEventRecord {
  return {
    paymentId: data.paymentId,
    merchantId: data.merchantId,
    referenceId: data.referenceId,
    status: data.status,
    failureCode: data.failureCode,
    currency: data.amount.unit.slice('iso4217/'.length),
    amountMinor: data.amount.value,
    tokenAsset: data.tokenAmount ? data.tokenAmount.unit.slice('caip19/'.length) : null,
    tokenAmount: data.tokenAmount ? data.tokenAmount.value : null,
    txHash: data.txId,
    cancelledReason: data.cancelledReason,
    refundedAt: data.refundedAt,
    createdAt: data.createdAt,
    expiresAt: new Date(data.expiresAt * 1000).toISOString(),
    version: data.version,
  };
}

interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  account_id: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  redelivery: boolean;
  attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface AttemptRow {
  id: string;
  delivery_id: string;
  event_id: string;
  endpoint_id: string;
  attempted_at: Date;
  duration_ms: number;
  response_status: number | null;
  error: string | null;
  succeeded: boolean;
}

export const MAX_ENDPOINTS_PER_ACCOUNT = 16;

// ---- Rows to domain types (src/domain/webhook.ts) ----

function toEndpoint(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    accountId: r.account_id,
    url: r.url,
    description: r.description,
    // The column holds only types the API validated on the way in.
    enabledEvents: r.enabled_events as WebhookEventType[],
    apiVersion: r.api_version,
    status: r.status,
    disabledReason: r.disabled_reason,
    disabledAt: r.disabled_at,
    previousSecretExpiresAt: r.previous_secret_expires_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deletedAt: r.deleted_at,
  };
}

function toDelivery(d: DeliveryRow): WebhookDelivery {
  return {
    id: d.id,
    eventId: d.event_id,
    endpointId: d.endpoint_id,
    accountId: d.account_id,
    status: d.status,
    redelivery: d.redelivery,
    attempts: d.attempts,
    nextAttemptAt: d.next_attempt_at,
    createdAt: d.created_at,
    updatedAt: d.updated_at,
  };
}

function toAttempt(a: AttemptRow): WebhookAttempt {
  return {
    id: a.id,
    deliveryId: a.delivery_id,
    eventId: a.event_id,
    endpointId: a.endpoint_id,
    attemptedAt: a.attempted_at,
    durationMs: a.duration_ms,
    responseStatus: a.response_status,
    error: a.error,
    succeeded: a.succeeded,
  };
}

// ---- Endpoints ----

export async function insertEndpoint(db: Db, e: NewWebhookEndpoint): Promise<WebhookEndpoint> {
  const knex = knexOf(db);
  const [created]: EndpointRow[] = await knex('webhook_endpoints')
    .insert({
      id: e.id,
      account_id: e.accountId,
      url: e.url,
      description: e.description,
      enabled_events: e.enabledEvents,
      api_version: e.apiVersion,
      secret: e.sealedSecret,
      created_at: knex.fn.now(),
      updated_at: knex.fn.now(),
    })
    .returning('*');
  return toEndpoint(created);
}

/** Live endpoints of the account, without a lock: the early refusal before any network work. */
export async function countEndpoints(db: Db, accountId: string): Promise<number> {
  const knex = knexOf(db);
  const [{ n }] = await knex('webhook_endpoints')
    .where({ account_id: accountId })
    .whereNull('deleted_at')
    .count<{ n: string }[]>({ n: '*' });
  return Number(n);
}

/** Live endpoints of the account, locked so that concurrent creations count each other. */
export async function countEndpointsForUpdate(db: Tx, accountId: string): Promise<number> {
  const knex = knexOf(db);
  await knex.raw('SELECT id FROM accounts WHERE id = ? FOR UPDATE', [accountId]);
  const [{ n }] = await knex('webhook_endpoints')
    .where({ account_id: accountId })
    .whereNull('deleted_at')
    .count<{ n: string }[]>({ n: '*' });
  return Number(n);
}

/** The endpoint, deleted or not. */
export async function findEndpoint(db: Db, id: string): Promise<WebhookEndpoint | undefined> {
  const knex = knexOf(db);
  const row = await knex<EndpointRow>('webhook_endpoints').where({ id }).first();
  return row && toEndpoint(row);
}

/** The account's live endpoints, newest first. */
export async function listEndpoints(db: Db, accountId: string): Promise<WebhookEndpoint[]> {
  const knex = knexOf(db);
  const rows = await knex<EndpointRow>('webhook_endpoints')
    .where({ account_id: accountId })
    .whereNull('deleted_at')
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
  return rows.map(toEndpoint);
}

/** Changes a live endpoint; undefined when it is missing or deleted. */
export async function updateEndpoint(db: Db, id: string, changes: WebhookEndpointChanges): Promise<WebhookEndpoint | undefined> {
  const knex = knexOf(db);
  const columns: Record<string, unknown> = { updated_at: knex.fn.now() };
  if (changes.url !== undefined) columns.url = changes.url;
  if (changes.enabledEvents !== undefined) columns.enabled_events = changes.enabledEvents;
  if (changes.description !== undefined) columns.description = changes.description;
  if (changes.enabled)
    Object.assign(columns, { status: 'enabled', disabled_reason: null, disabled_at: null, failing_since: null, last_failed_at: null });
  if (changes.disabled)
    Object.assign(columns, { status: 'disabled', disabled_reason: changes.disabled.reason, disabled_at: knex.fn.now() });
  const [row]: EndpointRow[] = await knex('webhook_endpoints').where({ id }).whereNull('deleted_at').update(columns).returning('*');
  return row && toEndpoint(row);
}

/**
 * Replaces the secret under the row's lock: the previous secret is the one stored at that instant, so two
 * rotations at once cannot hand a caller a secret that is neither current nor previous. The stored secret is
 * sealed for its column, so `asPrevious` re-seals it for previous_secret (null: keep none).
 */
export async function rotateEndpointSecret(
  db: Db,
  id: string,
  sealedSecret: Buffer,
  asPrevious: (current: Buffer) => Buffer | null,
  overlapSeconds: number,
): Promise<WebhookEndpoint | undefined> {
  return knexOf(db).transaction(async (trx) => {
    const current = await trx<EndpointRow>('webhook_endpoints').where({ id }).whereNull('deleted_at').forUpdate().first('secret');
    if (!current) return undefined;
    const { rows } = await trx.raw(
      `
      UPDATE webhook_endpoints SET
        previous_secret = ?,
        previous_secret_expires_at = CASE WHEN ? > 0 THEN now() + (? * interval '1 second') END,
        secret = ?, updated_at = now()
      WHERE id = ?
      RETURNING *`,
      [overlapSeconds > 0 ? asPrevious(current.secret) : null, overlapSeconds, overlapSeconds, sealedSecret, id],
    );
    return toEndpoint(rows[0]);
  });
}

/** Deletes the endpoint (the row stays, marked, for its deliveries' history); a deleted one stays as it is. */
export async function markEndpointDeleted(db: Db, id: string): Promise<void> {
  const knex = knexOf(db);
  await knex('webhook_endpoints').where({ id }).whereNull('deleted_at').update({ deleted_at: knex.fn.now(), updated_at: knex.fn.now() });
}

/**
 * Stops what is still queued for an endpoint that was disabled or deleted. Deliveries a worker holds locked
 * right now are skipped, not waited for: the worker locks its delivery before the endpoint and this runs with
 * the endpoint locked, so waiting deadlocked (a DELETE answered 500, found by the contract gate). A skipped
 * delivery finishes its attempt; its next claim finds the endpoint gone or disabled and cancels it.
 */
export async function cancelPendingDeliveries(db: Db, endpointId: string): Promise<number> {
  const knex = knexOf(db);
  const { rowCount } = await knex.raw(
    `
    UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, updated_at = now()
    WHERE id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ? AND status = 'pending' FOR UPDATE SKIP LOCKED)`,
    [endpointId],
  );
  return rowCount ?? 0;
}

// ---- Events ----

export async function findEvent(db: Db, id: string): Promise<PaymentEvent | undefined> {
  const knex = knexOf(db);
  const row = await knex<EventRow>('payment_events').where({ id }).first();
  return row && toEvent(row);
}

export interface EventListQuery {
  type?: string;
  paymentId?: string;
  after?: { createdAt: string; id: string };
  limit: number;
}

export async function listEvents(db: Db, accountId: string, q: EventListQuery): Promise<PaymentEvent[]> {
  const knex = knexOf(db);
  const query = knex<EventRow>('payment_events').where({ account_id: accountId });
  if (q.type) query.where({ type: q.type as WebhookEventType });
  if (q.paymentId) query.where({ payment_id: q.paymentId });
  if (q.after) query.whereRaw('(created_at, id) < (?::timestamptz, ?)', [q.after.createdAt, q.after.id]);
  const rows = await query
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(q.limit);
  return rows.map(toEvent);
}

// ---- Fan-out ----

// SHIM(outbox-unmarked): the `unmarked` part below takes events of releases before the outbox (docs/upgrading.md).
// Takes queued events (SKIP LOCKED: dispatchers in other processes take other rows), creates one delivery per
// enabled endpoint subscribed to the event's type, and dequeues them, in one statement. Events come from the
// outbox queue (payment_event_outbox, which this release writes beside each event) and, during a rolling deploy,
// from processes of the release before it, which write events with dispatched_at NULL and no queue row
// (migration 20261201090000): those are marked as before. The new deliveries get no job (enqueued_at is null):
// the dispatching process hands their accounts to its claimers, and every process's rescue pass finds what they
// leave waiting (a share beyond this process's slots, or all of it if this process dies now).
// Prepared (planned once per connection): dispatch passes follow payment changes every few milliseconds under
// load, and planning this statement cost more than running it (docs/performance.md).
const dispatchStatement = preparedStatement(
  'paygate_webhook_dispatch',
  `
  WITH queued AS (
    DELETE FROM payment_event_outbox o
    WHERE o.seq IN (SELECT seq FROM payment_event_outbox ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED)
    RETURNING o.event_id AS id, o.account_id, o.type
  ), unmarked AS (
    UPDATE payment_events e SET dispatched_at = now()
    WHERE e.id IN (SELECT id FROM payment_events WHERE dispatched_at IS NULL ORDER BY created_at, id LIMIT ? FOR UPDATE SKIP LOCKED)
    RETURNING e.id, e.account_id, e.type
  ), batch AS (
    SELECT id, account_id, type FROM queued UNION ALL SELECT id, account_id, type FROM unmarked
  )
  , ins AS (
    INSERT INTO webhook_deliveries (id, event_id, endpoint_id, account_id, status, redelivery, next_attempt_at, enqueued_at)
    SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), b.id, w.id, b.account_id, 'pending', false, now(), NULL
    FROM batch b JOIN webhook_endpoints w
      ON w.account_id = b.account_id AND w.deleted_at IS NULL AND w.status = 'enabled' AND b.type = ANY (w.enabled_events)
    ON CONFLICT DO NOTHING
    RETURNING account_id)
  SELECT (SELECT count(*) FROM queued)::int AS queued, (SELECT count(*) FROM unmarked)::int AS unmarked,
    (SELECT count(*) FROM ins)::int AS deliveries, (SELECT coalesce(json_agg(DISTINCT account_id), '[]') FROM ins) AS accounts`,
);

/**
 * Fans out up to `limit` queued events and up to `limit` unmarked ones; returns the accounts that got deliveries,
 * whether more may be waiting (a limit was reached) and how many deliveries were created.
 */
export async function dispatchEvents(db: Db, limit: number): Promise<{ accounts: string[]; more: boolean; deliveries: number }> {
  const { rows } = await dispatchStatement(db, [limit, limit]);
  const { queued, unmarked } = rows[0] as { queued: number; unmarked: number };
  return { accounts: rows[0].accounts as string[], more: queued >= limit || unmarked >= limit, deliveries: rows[0].deliveries as number };
}

/**
 * Refreshes the planner's statistics of webhook_deliveries. Pending deliveries are rare whenever delivery keeps
 * up, and statistics taken then make the planner estimate one pending row: the claims' plans (made once per
 * connection) then read every pending delivery, or the whole table, on each claim once a backlog has built up.
 * An ANALYZE replaces those plans on every connection. Without the table's ownership it does nothing (a warning
 * in the database's log).
 */
export async function analyzeDeliveries(db: Db): Promise<void> {
  // Not behind a long wait for the table's lock (an autovacuum that will not yield, a migration): the next
  // backlog asks again.
  await knexOf(db).transaction(async (trx) => {
    await trx.raw(`SELECT set_config('lock_timeout', '1000', true)`);
    await trx.raw('ANALYZE webhook_deliveries');
  });
}

export async function insertRedeliveries(db: Db, event: PaymentEvent, endpointIds: string[]): Promise<WebhookDelivery[]> {
  const knex = knexOf(db);
  if (endpointIds.length === 0) return [];
  const now = knex.fn.now(); // due at once, by the database's clock (the claims compare with it)
  return knex('webhook_deliveries')
    .insert(
      endpointIds.map((endpointId) => ({
        id: newId('whd'),
        event_id: event.id,
        endpoint_id: endpointId,
        account_id: event.accountId,
        status: 'pending' as const,
        redelivery: true,
        attempts: 0,
        next_attempt_at: now,
        enqueued_at: now,
        created_at: now,
        updated_at: now,
      })),
    )
    .returning('*')
    .then((rows: DeliveryRow[]) => rows.map(toDelivery));
}

export async function listDeliveries(db: Db, eventId: string): Promise<WebhookDelivery[]> {
  const knex = knexOf(db);
  const rows = await knex<DeliveryRow>('webhook_deliveries')
    .where({ event_id: eventId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  return rows.map(toDelivery);
}

/** The event's newest 200 attempts, oldest first. */
export async function listAttempts(db: Db, eventId: string): Promise<WebhookAttempt[]> {
  const knex = knexOf(db);
  const newest = await knex<AttemptRow>('webhook_attempts')
    .where({ event_id: eventId })
    .orderBy([
      { column: 'attempted_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(200);
  return newest.reverse().map(toAttempt);
}

// ---- Delivery ----

// A delivery named by id is still pending: written so that the planner finds it by its primary key, not through a
// partial index of pending deliveries, which stale statistics (taken while delivery kept up) make look empty and
// which then gets read whole on every call (migration 20261201090200; tests/integration/webhookPlans.test.ts).
const STILL_PENDING = "status IS NOT DISTINCT FROM 'pending'";

export interface Claimed {
  delivery: WebhookDelivery;
  endpoint: SigningEndpoint;
  event: PaymentEvent;
  /** The database's time of the claim. */
  asOf: Date;
  /** The claim's lease token: only its holder may record the outcome. */
  leaseToken: string;
}

/** Attempts in flight (leases in force) allowed at once, across all processes. */
export interface InFlightCaps {
  perEndpoint: number;
  perAccount: number;
}

// The claimed rows with their endpoint and event, in one result. Each is looked up by its key (a subquery per
// row, an index scan): the planner takes a function's result for 1000 rows, and with joins it hashed all of
// payment_events on every claim, a cost that grew with the table and was paid holding the account's claim lock.
// The foreign keys make every lookup find its row. `deliveries`: the claimed rows, a FROM item named c.
const claimedFrom = (deliveries: string) => `
  SELECT row_to_json(c) AS delivery,
    (SELECT row_to_json(w) FROM webhook_endpoints w WHERE w.id = c.endpoint_id) AS endpoint,
    (SELECT row_to_json(e) FROM payment_events e WHERE e.id = c.event_id) AS event, now() AS db_now
  FROM ${deliveries}`;
const CLAIMED_SELECT = claimedFrom('c');

/**
 * Takes a due, pending delivery for one attempt, with its endpoint and event: the lease keeps other workers
 * (and duplicate jobs) off it while the request runs, and runs out by itself if this process dies. With
 * `caps`, the delivery is taken only while its endpoint and its account have fewer leases in force than the
 * caps, counted under the account's claim lock (webhook_claim_delivery, one round trip; see the migration
 * 20261126090000): otherwise it stays pending and unleased, for `claimDeliveries` once one of the
 * account's attempts ends.
 */
export async function claimDelivery(db: Db, id: string, leaseMs: number, token: string, caps?: InFlightCaps): Promise<Claimed | undefined> {
  const knex = knexOf(db);
  if (!caps) {
    const { rows } = await knex.raw(
      `
      WITH c AS (
        UPDATE webhook_deliveries SET locked_until = now() + (? * interval '1 millisecond'), lease_token = ?
        WHERE id = ? AND ${STILL_PENDING} AND next_attempt_at <= now() + interval '1 second'
          AND (locked_until IS NULL OR locked_until < now())
        RETURNING *)
      ${CLAIMED_SELECT}`,
      [leaseMs, token, id],
    );
    return claimedRow(rows[0]);
  }
  const { rows } = await knex.raw(`WITH c AS (SELECT * FROM webhook_claim_delivery(?, ?, ?, ?, ?)) ${CLAIMED_SELECT}`, [
    id,
    leaseMs,
    token,
    caps.perEndpoint,
    caps.perAccount,
  ]);
  return claimedRow(rows[0]);
}

// Prepared (planned once per connection instead of on every claim, and a claim follows each attempt under load).
// Its result is JSON and a time, whatever columns the tables gain.
const claimDeliveriesStatement = preparedStatement(
  'paygate_webhook_claim_deliveries',
  claimedFrom('webhook_claim_deliveries(?, ?::text[], ?, ?, ?, ?) c'),
);

/**
 * Takes up to `limit` of the account's deliveries within the caps, in one round trip
 * (webhook_claim_deliveries): those named in `ids` if they are due (their jobs came), and the account's
 * due deliveries that wait (refused at a cap earlier, or whose job was lost); spread over its endpoints,
 * least busy first. Each gets a lease token of its own.
 */
export async function claimDeliveries(
  db: Db,
  accountId: string,
  ids: string[],
  limit: number,
  leaseMs: number,
  caps: InFlightCaps,
): Promise<Claimed[]> {
  const { rows } = await claimDeliveriesStatement(db, [accountId, ids, limit, leaseMs, caps.perEndpoint, caps.perAccount]);
  return rows.map((r: Parameters<typeof claimedRow>[0]) => claimedRow(r)!);
}

function claimedRow(row: { delivery: any; endpoint: any; event: any; db_now: unknown } | undefined): Claimed | undefined {
  if (!row) return undefined;
  // row_to_json gives timestamps as text and bytea as \x hex: back to the row types.
  const date = (v: string | null) => (v === null ? null : new Date(v));
  const bytes = (v: string | null) => (v === null ? null : Buffer.from(v.slice(2), 'hex'));
  const d = row.delivery;
  const w = row.endpoint;
  const e = row.event;
  const endpoint = toEndpoint({
    ...w,
    disabled_at: date(w.disabled_at),
    previous_secret_expires_at: date(w.previous_secret_expires_at),
    created_at: new Date(w.created_at),
    updated_at: new Date(w.updated_at),
    deleted_at: date(w.deleted_at),
  });
  return {
    delivery: toDelivery({
      ...d,
      next_attempt_at: date(d.next_attempt_at),
      created_at: new Date(d.created_at),
      updated_at: new Date(d.updated_at),
    }),
    endpoint: { ...endpoint, sealedSecret: bytes(w.secret)!, previousSealedSecret: bytes(w.previous_secret) },
    event: toEvent({ ...e, created_at: new Date(e.created_at) }),
    leaseToken: d.lease_token,
    asOf: readAt(row), // the database's time of the claim: the previous secret's expiry and the retry window are judged by it
  };
}

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
