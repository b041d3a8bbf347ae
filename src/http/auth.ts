import type { Knex } from 'knex';
import { parseKey, secretMatches } from '../domain/apiKeys';
import { AppError } from '../domain/errors';
import { findKey } from '../db/accountsRepo';
import type { Caller } from './handlerTypes';

export interface Authenticated extends Caller {
  defaultVersion: string;
}

/**
 * Resolves the Api-Key header to its account. Unknown, malformed and revoked keys are indistinguishable to
 * the caller (401 invalid_api_key); the secret is compared in constant time against its stored hash.
 */
export async function authenticate(db: Knex, apiKey: string | undefined): Promise<Authenticated> {
  if (apiKey === undefined || apiKey === '') throw new AppError('missing_api_key');
  const parsed = parseKey(apiKey.trim());
  if (!parsed) throw new AppError('invalid_api_key');
  const row = await findKey(db, parsed.keyId);
  if (!row || row.revoked_at || !secretMatches(parsed.secret, row.secret_hash)) throw new AppError('invalid_api_key');
  return { accountId: row.account_id, keyId: row.id, keyType: row.type, defaultVersion: row.default_version };
}
