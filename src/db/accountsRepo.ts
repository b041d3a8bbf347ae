import type { Knex } from 'knex';
import { issueKey, KeyType } from '../domain/apiKeys';
import { newId } from '../domain/ids';
import { STABLE_VERSION } from '../domain/versions';

export interface KeyRow {
  id: string;
  account_id: string;
  type: KeyType;
  secret_hash: Buffer;
  revoked_at: Date | null;
  default_version: string;
}

export async function createAccount(db: Knex, name: string) {
  const accountId = newId('acct');
  return db.transaction(async (trx) => {
    await trx('accounts').insert({ id: accountId, name, default_version: STABLE_VERSION });
    const key = await insertKey(trx, accountId, 'partner');
    return { accountId, ...key };
  });
}

async function insertKey(db: Knex, accountId: string, type: KeyType) {
  const k = issueKey();
  await db('api_keys').insert({ id: k.keyId, account_id: accountId, type, secret_hash: k.secretHash });
  return { keyId: k.keyId, apiKey: k.apiKey };
}

/** Null when the account does not exist. */
export async function createKey(db: Knex, accountId: string, type: KeyType) {
  const account = await db('accounts').where({ id: accountId }).first('id');
  if (!account) return null;
  return insertKey(db, accountId, type);
}

/** False when no such key. Revoking twice keeps the first revocation time. */
export async function revokeKey(db: Knex, keyId: string): Promise<boolean> {
  const n = await db('api_keys').where({ id: keyId }).update({ revoked_at: db.raw('coalesce(revoked_at, now())') });
  return n > 0;
}

export async function findKey(db: Knex, keyId: string): Promise<KeyRow | undefined> {
  return db('api_keys as k')
    .join('accounts as a', 'a.id', 'k.account_id')
    .where('k.id', keyId)
    .first('k.id', 'k.account_id', 'k.type', 'k.secret_hash', 'k.revoked_at', 'a.default_version');
}
