import { issueKey, type KeyType } from '../domain/apiKeys';
import type { Mode } from '../domain/mode';
import { recordAudit, type AuditActor } from './auditRepo';
import { KEY_REVOKED_CHANNEL } from './accountsRepo';
import { Db, knexOf } from './knex';

// An account scope's API keys as a partner manages them (preview /v1/api-keys, docs/keys.md): never their secrets,
// which exist only as hashes (src/domain/apiKeys.ts). Each change writes the scope's audit log in the same transaction.

export interface ApiKeyRow {
  id: string;
  name: string | null;
  type: KeyType;
  readOnly: boolean;
  expiresAt: Date | null;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface NewKey {
  name: string;
  type: KeyType;
  readOnly: boolean;
  expiresAt: Date | null;
}

const toRow = (r: Record<string, any>): ApiKeyRow => ({
  id: r.id,
  name: r.name,
  type: r.type,
  readOnly: r.read_only,
  expiresAt: r.expires_at,
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
    const issued = issueKey(mode);
    const [row] = await trx('api_keys')
      .insert({
        id: issued.keyId,
        account_id: scope,
        type: k.type,
        secret_hash: issued.secretHash,
        name: k.name,
        read_only: k.readOnly,
        expires_at: k.expiresAt,
        created_by: actor.type === 'api_key' ? actor.id : null,
      })
      .returning('*');
    await recordAudit(trx, scope, actor, 'api_key.created', issued.keyId);
    return { key: toRow(row), apiKey: issued.apiKey };
  });
}

/** Revokes the scope's key (a second time keeps the first time, and writes no audit event); null when it has none such. */
export async function revokeScopedKey(db: Db, scope: string, keyId: string, actor: AuditActor): Promise<ApiKeyRow | null> {
  return knexOf(db).transaction(async (trx) => {
    const [before] = await trx('api_keys').where({ id: keyId, account_id: scope }).forUpdate().select('revoked_at');
    if (!before) return null;
    const [row] = await trx('api_keys')
      .where({ id: keyId })
      .update({ revoked_at: trx.raw('coalesce(revoked_at, now())') })
      .returning('*');
    if (!before.revoked_at) {
      await trx.raw('SELECT pg_notify(?, ?)', [KEY_REVOKED_CHANNEL, keyId]);
      await recordAudit(trx, scope, actor, 'api_key.revoked', keyId);
    }
    return toRow(row);
  });
}
