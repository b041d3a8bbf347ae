import type { Db } from '../db/knex';
import { clientIdMatches, parseKey, secretMatches } from '../domain/apiKeys';
import { AppError } from '../domain/errors';
import { findApp, findKey } from '../db/accountsRepo';
import type { Caller } from './handlerTypes';
import type { KeyCache } from './keyCache';

export interface Authenticated extends Caller {
  defaultVersion: string;
}

/** Runs before a credential is looked up in the database: it may refuse the request instead (429). */
export type BeforeLookup = () => Promise<void>;

/**
 * Resolves the Api-Key header to its account. Unknown, malformed, revoked and expired keys are indistinguishable
 * to the caller (401 invalid_api_key); the secret is compared in constant time against its stored hash. Keys
 * verified, and ids found unknown or revoked, are remembered a while (keyCache.ts): only a key id new to this
 * process costs a query, after `beforeLookup`.
 */
export async function authenticate(
  db: Db,
  apiKey: string | undefined,
  cache: KeyCache,
  beforeLookup?: BeforeLookup,
): Promise<Authenticated> {
  if (apiKey === undefined || apiKey === '') throw new AppError('missing_api_key');
  const parsed = parseKey(apiKey.trim());
  if (!parsed || cache.isUnknown(parsed.keyId)) throw new AppError('invalid_api_key');
  let key = cache.get(parsed.keyId);
  if (!key) {
    const ticket = cache.ticket();
    await beforeLookup?.();
    key = await findKey(db, parsed.keyId);
    if (key && !key.revokedAt) cache.set(key, ticket);
    else cache.setUnknown(parsed.keyId);
  }
  const expired = key?.expiresAt != null && key.expiresAt.getTime() <= Date.now();
  if (!key || key.revokedAt || expired || key.mode !== parsed.mode || !secretMatches(parsed.secret, key.secretHash)) {
    throw new AppError('invalid_api_key');
  }
  return {
    accountId: key.accountId,
    mode: key.mode,
    keyId: key.id,
    keyType: key.type,
    readOnly: key.readOnly,
    merchantIds: key.merchantIds,
    defaultVersion: key.defaultVersion,
  };
}

/**
 * Gateway operations: an Api-Key (wallet or partner) when one is sent, otherwise App-Id + Client-Id of a
 * registered app. A wrong pair is 401 invalid_api_key, like a wrong key. Apps are read at every request (a
 * revocation takes effect at the next one), but an App-Id found unknown or revoked is remembered like a key id.
 */
export async function authenticateGateway(
  db: Db,
  h: { apiKey?: string; appId?: string; clientId?: string },
  cache: KeyCache,
  beforeLookup?: BeforeLookup,
): Promise<Authenticated> {
  if (h.apiKey || !h.appId) return authenticate(db, h.apiKey, cache, beforeLookup);
  if (!h.clientId) throw new AppError('invalid_api_key', 'App-Id needs its Client-Id.');
  const invalid = () => new AppError('invalid_api_key', 'The App-Id and Client-Id are not valid.');
  if (!/^app_[0-9A-Za-z]{22}$/.test(h.appId) || cache.isUnknown(h.appId)) throw invalid();
  await beforeLookup?.();
  const app = await findApp(db, h.appId);
  if (!app || app.revokedAt) cache.setUnknown(h.appId);
  if (!app || app.revokedAt || !clientIdMatches(h.clientId.trim(), app.clientHash, app.mode)) throw invalid();
  return { accountId: app.accountId, mode: app.mode, keyId: app.id, keyType: 'app', defaultVersion: app.defaultVersion };
}
