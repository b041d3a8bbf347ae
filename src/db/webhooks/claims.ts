import { readAt } from '../clock';
import type { PaymentEvent } from '../../domain/paymentEvent';
import type { SigningEndpoint, WebhookDelivery } from '../../domain/webhook';
import { Db, knexOf } from '../knex';
import { preparedStatement } from '../prepared';
import { toDelivery, toEndpoint, toEvent } from './rows';

// ---- Delivery ----

// A delivery named by id is still pending: written so that the planner finds it by its primary key, not through a
// partial index of pending deliveries, which stale statistics (taken while delivery kept up) make look empty and
// which then gets read whole on every call (migration 20261201090200; tests/integration/webhookPlans.own.test.ts).
export const STILL_PENDING = "status IS NOT DISTINCT FROM 'pending'";

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
