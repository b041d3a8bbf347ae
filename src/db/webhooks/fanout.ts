import { newId } from '../../domain/ids';
import type { PaymentEvent } from '../../domain/paymentEvent';
import { HOSTED_EVENT_TYPES, type WebhookDelivery } from '../../domain/webhook';
import { Db, knexOf } from '../knex';
import { preparedStatement } from '../prepared';
import { DeliveryRow, toDelivery } from './rows';

// ---- Fan-out ----

// SHIM(outbox-unmarked): the `unmarked` part below takes events of releases before the outbox (docs/upgrading.md).
// Takes queued events (SKIP LOCKED: dispatchers in other processes take other rows), creates one delivery per
// enabled endpoint subscribed to the event's type, and dequeues them, in one statement. Events come from the
// outbox queue (payment_event_outbox, which this release writes beside each event) and, during a rolling deploy,
// from processes of the release before it, which write events with dispatched_at NULL and no queue row
// (migration 20261201090000): those are marked as before. The new deliveries get no job (enqueued_at is null):
// the dispatching process hands their accounts to its claimers, and every process's rescue pass finds what they
// leave waiting (a share beyond this process's slots, or all of it if this process dies now).
// An endpoint in the hosted 2026-05-18 format gets only the types that format has (HOSTED_EVENT_TYPES, constant
// text spelled into the statement).
// Prepared (planned once per connection): dispatch passes follow payment changes every few milliseconds under
// load, and planning this statement cost more than running it (docs/performance.md).
const HOSTED_TYPES_SQL = `ARRAY[${HOSTED_EVENT_TYPES.map((t) => `'${t}'`).join(', ')}]::text[]`;
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
      AND (w.payload_format = 'paygate' OR b.type = ANY (${HOSTED_TYPES_SQL}))
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
