import type { NewWebhookEndpoint, WebhookEndpoint, WebhookEndpointChanges } from '../../domain/webhook';
import { Db, knexOf, Tx } from '../knex';
import { EndpointRow, toEndpoint } from './rows';

export const MAX_ENDPOINTS_PER_ACCOUNT = 16;

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
      payload_format: e.payloadFormat,
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
  if (changes.payloadFormat !== undefined) columns.payload_format = changes.payloadFormat;
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

/** Live endpoints whose deliveries are failing now, and how long the one failing longest has been (for metrics). */
export async function failingEndpoints(db: Db): Promise<{ failing: number; longestS: number }> {
  const knex = knexOf(db);
  const [r] = await knex('webhook_endpoints')
    .whereNull('deleted_at')
    .where({ status: 'enabled' })
    .whereNotNull('failing_since')
    .select(
      knex.raw('count(*)::int AS failing'),
      knex.raw('coalesce(extract(epoch from now() - min(failing_since)), 0)::float8 AS longest'),
    );
  return { failing: Number(r.failing), longestS: Number(r.longest) };
}
