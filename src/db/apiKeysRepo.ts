import type { KeyType } from '../domain/apiKeys';
import type { Mode } from '../domain/mode';
import { recordAudit, type AuditActor } from './auditRepo';
import { insertKey, KEY_REVOKED_CHANNEL, type KeyTerms } from './accountsRepo';
import { Db, knexOf } from './knex';

// An account scope's API keys as a partner manages them (preview /v1/api-keys, docs/keys.md): never their secrets,
// which exist only as hashes (src/domain/apiKeys.ts). Each change writes the scope's audit log in the same transaction.

export interface ApiKeyRow {
  id: string;
  name: string | null;
  type: KeyType;
  readOnly: boolean;
  merchantIds: string[] | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
  revokedAt: Date | null;
}

/** A partner's new key: its type and terms (who makes it is the audit actor). */
export interface NewKey extends Omit<KeyTerms, 'createdBy'> {
  type: KeyType;
}

const toRow = (r: Record<string, any>): ApiKeyRow => ({
  id: r.id,
  name: r.name,
  type: r.type,
  readOnly: r.read_only,
  merchantIds: r.merchant_ids,
  expiresAt: r.expires_at,
  lastUsedAt: r.last_used_at,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

/** The scope's keys, newest first (at most `limit`). */
export async function keysOf(db: Db, scope: string, limit: number): Promise<ApiKeyRow[]> {
  const rows = await knexOf(db)('api_keys')
    .where({ account_id: scope })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit);
  return rows.map(toRow);
}

/** How many of the scope's keys are not revoked (counted under the scope's advisory lock by `insertScopedKey`). */
async function liveKeys(db: Db, scope: string): Promise<number> {
  const [r] = await knexOf(db)('api_keys').where({ account_id: scope }).whereNull('revoked_at').count<{ n: string }[]>({ n: '*' });
  return Number(r.n);
}

/** A new key of the scope, or null when the scope already has `max` keys not revoked. */
export async function insertScopedKey(db: Db, scope: string, mode: Mode, k: NewKey, actor: AuditActor, max: number) {
  return knexOf(db).transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`api_keys/${scope}`]);
    if ((await liveKeys(trx, scope)) >= max) return null;
    const createdBy = actor.type === 'api_key' ? actor.id : null;
    const issued = await insertKey(trx, scope, k.type, mode, { ...k, createdBy });
    const row = await trx('api_keys').where({ id: issued.keyId }).first();
    await recordAudit(trx, scope, actor, 'api_key.created', issued.keyId);
    return { key: toRow(row), apiKey: issued.apiKey };
  });
}

/**
 * Revokes a key: of `scope` only when given (a partner's), any key for the operator. A second time keeps the first
 * time and writes no audit event. Null when there is no such key. Every process drops it from its key cache at once.
 */
export async function revokeKey(db: Db, keyId: string, actor: AuditActor, scope?: string): Promise<ApiKeyRow | null> {
  return knexOf(db).transaction(async (trx) => {
    const [before] = await trx('api_keys')
      .where({ id: keyId, ...(scope && { account_id: scope }) })
      .forUpdate()
      .select('account_id', 'revoked_at');
    if (!before) return null;
    const [row] = await trx('api_keys')
      .where({ id: keyId })
      .update({ revoked_at: trx.raw('coalesce(revoked_at, now())') })
      .returning('*');
    await trx.raw('SELECT pg_notify(?, ?)', [KEY_REVOKED_CHANNEL, keyId]);
    if (!before.revoked_at) await recordAudit(trx, before.account_id, actor, 'api_key.revoked', keyId);
    return toRow(row);
  });
}

/**
 * Records that the key was used now, unless its last use was recorded less than a minute ago (then nothing is
 * written): `lastUsedAt` has a minute's granularity, and a key in constant use costs one write a minute, not one a
 * request (src/http/keyUsage.ts asks at most once a minute per process).
 */
export async function recordKeyUse(db: Db, keyId: string): Promise<void> {
  await knexOf(db).raw(
    `UPDATE api_keys SET last_used_at = now()
     WHERE id = ? AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [keyId],
  );
}
