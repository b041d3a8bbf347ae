import { Db, knexOf, Tx } from './knex';

// IETF Idempotency-Key draft: the first response is stored and replayed. A key is claimed by the
// transaction that runs the request: it takes a transaction-scoped advisory lock on the key, writes the
// record, runs the work and stores the response, all in that one transaction. So the claim lives exactly
// as long as its holder: while the first request runs, others cannot take the lock (409 in progress),
// however long it takes; a holder that fails or dies (process killed, connection lost) rolls back, which
// releases the lock and removes its record, and the next request runs the work. Work is never done without
// its stored response, and never done twice. Records expire after RETENTION.
export const RETENTION_HOURS = 24;
/** A stored response that carries a secret is kept as this prefix and the base64 of the sealed text. */
export const SEALED_BODY = 'sealed:';
// SHIM(idempotency-legacy-claim): only for records of the release before claims lived in their transaction
// (docs/upgrading.md), which committed its claim before the work: such a claim (state in_progress) could be
// taken over after this long. This release never commits one.
const LEGACY_LOCK_TIMEOUT_SECONDS = 60;

export type Claim = { kind: 'claimed' } | { kind: 'mismatch' } | { kind: 'in_progress' } | { kind: 'done'; status: number; body: string };

/** What a live, committed record of the key says (a stored response, or another request), or null. */
export async function lookup(db: Db, scope: string, key: string, fingerprint: string): Promise<Claim | null> {
  const knex = knexOf(db);
  const row = await knex('idempotency_keys')
    .where({ scope, key })
    .andWhere('expires_at', '>=', knex.fn.now())
    .first('fingerprint', 'state', 'response_status', 'response_body');
  if (!row) return null;
  if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
  if (row.state === 'done') return { kind: 'done', status: row.response_status, body: row.response_body };
  return null;
}

/**
 * Claims the key for `trx`, the transaction that will run the request and `complete` it. Use only `trx`
 * inside (a second pool connection while holding one could starve the pool). Not claimed: the key's
 * record or its live holder says what to answer.
 */
export async function claim(trx: Tx, scope: string, key: string, fingerprint: string): Promise<Claim> {
  const knex = knexOf(trx);
  const {
    rows: [{ locked }],
  } = await knex.raw('SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0)) AS locked', [`idempotency:${scope}\n${key}`]);
  if (!locked) return { kind: 'in_progress' }; // its holder's transaction is alive
  // Holding the lock, in a new statement (so a snapshot taken after the previous holder committed).
  const { rows } = await knex.raw(
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
    [scope, key, fingerprint, RETENTION_HOURS, LEGACY_LOCK_TIMEOUT_SECONDS],
  );
  if (rows.length) return { kind: 'claimed' };
  return (await lookup(trx, scope, key, fingerprint)) ?? { kind: 'in_progress' }; // finished meanwhile, or a legacy claim
}

/** Stores the response, in the claiming transaction: it commits with the work, or not at all. */
export async function complete(trx: Tx, scope: string, key: string, status: number, body: string): Promise<void> {
  const knex = knexOf(trx);
  await knex('idempotency_keys').where({ scope, key }).update({ state: 'done', response_status: status, response_body: body });
}

export async function purgeExpired(db: Db): Promise<number> {
  const knex = knexOf(db);
  return knex('idempotency_keys').where('expires_at', '<', knex.fn.now()).delete();
}
