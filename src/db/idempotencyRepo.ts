import type { Knex } from 'knex';

// IETF Idempotency-Key draft: the first response is stored and replayed; the record is claimed in its own
// short transaction (so concurrent retries see "in progress"), and completed in the transaction of the
// work itself (so a crash can never leave work done without its stored response). A claim abandoned by a
// crashed process can be taken over after LOCK_TIMEOUT; records expire after RETENTION.
export const RETENTION_HOURS = 24;
const LOCK_TIMEOUT_SECONDS = 60;

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' }
  | { kind: 'done'; status: number; body: string };

export async function claim(db: Knex, scope: string, key: string, fingerprint: string): Promise<Claim> {
  const { rows } = await db.raw(
    `INSERT INTO idempotency_keys (scope, key, fingerprint, state, locked_at, expires_at)
     VALUES (?, ?, ?, 'in_progress', now(), now() + make_interval(hours => ?))
     ON CONFLICT (scope, key) DO UPDATE
       SET fingerprint = EXCLUDED.fingerprint, state = 'in_progress', response_status = NULL,
           response_body = NULL, locked_at = now(), expires_at = EXCLUDED.expires_at
       WHERE idempotency_keys.expires_at < now()
          OR (idempotency_keys.state = 'in_progress'
              AND idempotency_keys.fingerprint = EXCLUDED.fingerprint
              AND idempotency_keys.locked_at < now() - make_interval(secs => ?))
     RETURNING key`,
    [scope, key, fingerprint, RETENTION_HOURS, LOCK_TIMEOUT_SECONDS],
  );
  if (rows.length) return { kind: 'claimed' };
  const row = await db('idempotency_keys').where({ scope, key }).first('fingerprint', 'state', 'response_status', 'response_body');
  if (!row) return claim(db, scope, key, fingerprint); // expired and removed in between: claim again
  if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
  if (row.state !== 'done') return { kind: 'in_progress' };
  return { kind: 'done', status: row.response_status, body: row.response_body };
}

export async function complete(db: Knex, scope: string, key: string, status: number, body: string): Promise<void> {
  await db('idempotency_keys').where({ scope, key }).update({ state: 'done', response_status: status, response_body: body });
}

/** Releases a claim whose work failed unexpectedly, so that a retry can run it again. */
export async function release(db: Knex, scope: string, key: string): Promise<void> {
  await db('idempotency_keys').where({ scope, key, state: 'in_progress' }).delete();
}

export async function purgeExpired(db: Knex): Promise<number> {
  return db('idempotency_keys').where('expires_at', '<', db.fn.now()).delete();
}
