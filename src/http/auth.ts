import type { Db } from '../db/knex';
import { clientIdMatches, parseKey, secretMatches } from '../domain/apiKeys';
import { AppError } from '../domain/errors';
import { findApp, findKey } from '../db/accountsRepo';
import type { Caller } from './handlerTypes';
import type { KeyCache } from './keyCache';

export interface Authenticated extends Caller {
  defaultVersion: string;
}

/**
 * Resolves the Api-Key header to its account. Unknown, malformed and revoked keys are indistinguishable to
 * the caller (401 invalid_api_key); the secret is compared in constant time against its stored hash.
 */
export async function authenticate(db: Db, apiKey: string | undefined, cache?: KeyCache): Promise<Authenticated> {
  if (apiKey === undefined || apiKey === '') throw new AppError('missing_api_key');
  const parsed = parseKey(apiKey.trim());
  if (!parsed) throw new AppError('invalid_api_key');
  let key = cache?.get(parsed.keyId);
  if (!key) {
    const ticket = cache?.ticket() ?? 0;
    key = await findKey(db, parsed.keyId);
    if (key && !key.revokedAt) cache?.set(key, ticket);
  }
  if (!key || key.revokedAt || !secretMatches(parsed.secret, key.secretHash)) throw new AppError('invalid_api_key');
  return { accountId: key.accountId, keyId: key.id, keyType: key.type, defaultVersion: key.defaultVersion };
}

/**
 * Gateway operations: an Api-Key (wallet or partner) when one is sent, otherwise App-Id + Client-Id of a
 * registered app. A wrong pair is 401 invalid_api_key, like a wrong key.
 */
export async function authenticateGateway(
  db: Db,
  h: { apiKey?: string; appId?: string; clientId?: string },
  cache?: KeyCache,
): Promise<Authenticated> {
  if (h.apiKey || !h.appId) return authenticate(db, h.apiKey, cache);
  if (!h.clientId) throw new AppError('invalid_api_key', 'App-Id needs its Client-Id.');
  const app = /^app_[0-9A-Za-z]{22}$/.test(h.appId) ? await findApp(db, h.appId) : undefined;
  if (!app || app.revokedAt || !clientIdMatches(h.clientId.trim(), app.clientHash)) {
    throw new AppError('invalid_api_key', 'The App-Id and Client-Id are not valid.');
  }
  return { accountId: app.accountId, keyId: app.id, keyType: 'app', defaultVersion: app.defaultVersion };
}
