import { insertScopedKey, keysOf, revokeKey, type ApiKeyRow } from '../../db/apiKeysRepo';
import { auditEventsOf, type AuditActor } from '../../db/auditRepo';

export type { ApiKeyRow } from '../../db/apiKeysRepo';
export type { AuditEvent } from '../../db/auditRepo';
import type { Db } from '../../db/knex';
import type { KeyType } from '../../domain/apiKeys';
import { canBeStoredId } from '../../domain/ids';
import { AppError } from '../../domain/errors';
import type { Mode } from '../../domain/mode';
import { ownedMerchant } from '../merchants/merchants';

// A partner's own API keys (preview /v1/api-keys, docs/keys.md): created in the caller's scope and mode, listed
// without secrets, revoked (never the calling key itself); each change in the scope's audit log.

/** Keys an account may hold at once, not revoked (409 api_key_limit beyond). */
const MAX_LIVE_KEYS = 100;
/** The newest keys listed. */
const LISTED = 200;
/** The furthest ahead an expiry may be set. */
const MAX_EXPIRY_MS = 10 * 366 * 24 * 3600 * 1000;

/** Who calls: the key's scope, mode and id. */
export interface KeyCaller {
  accountId: string;
  mode: Mode;
  keyId: string;
  /** A dashboard user calling through /dashboard/api. */
  dashboardUserId?: string;
}

/** Who the audit log names for a caller's change: the dashboard user, else the API key. */
export const auditActorOf = (caller: KeyCaller): AuditActor =>
  caller.dashboardUserId ? { type: 'dashboard_user', id: caller.dashboardUserId } : { type: 'api_key', id: caller.keyId };
const actor = auditActorOf;

export interface CreateKey {
  name: string;
  type?: KeyType;
  readOnly?: boolean;
  merchantIds?: string[];
  expiresAt?: string;
}

function expiryOf(at: string | undefined, now: number): Date | null {
  if (at === undefined) return null;
  const t = Date.parse(at);
  if (!(t > now && t <= now + MAX_EXPIRY_MS))
    throw new AppError('params_validation', undefined, [{ field: '/expiresAt', message: 'must be in the future, at most 10 years ahead' }]);
  return new Date(t);
}

/**
 * The merchants a key is limited to (null: not limited): each a merchant of the caller's scope, not deleted, as the
 * merchant operations find it (404 merchant_not_found, 403 forbidden for another account's). A wallet key reaches
 * the gateway only, which no merchant limits: none for it (400).
 */
async function merchantsOf(db: Db, caller: KeyCaller, type: KeyType, ids: string[] | undefined): Promise<string[] | null> {
  if (ids === undefined) return null;
  if (type === 'wallet')
    throw new AppError('params_validation', undefined, [
      { field: '/merchantIds', message: 'a wallet key reaches the gateway only: no merchants' },
    ]);
  for (const [i, id] of ids.entries()) {
    await ownedMerchant(db, caller.accountId, id).catch((e: unknown) => {
      throw e instanceof AppError ? new AppError(e.code, e.message, [{ field: `/merchantIds/${i}`, message: e.message }]) : e;
    });
  }
  return [...new Set(ids)];
}

export async function createApiKey(db: Db, caller: KeyCaller, req: CreateKey): Promise<{ key: ApiKeyRow; apiKey: string }> {
  const type = req.type ?? 'partner';
  const k = {
    name: req.name,
    type,
    readOnly: req.readOnly ?? false,
    expiresAt: expiryOf(req.expiresAt, Date.now()),
    merchantIds: await merchantsOf(db, caller, type, req.merchantIds),
  };
  const made = await insertScopedKey(db, caller.accountId, caller.mode, k, actor(caller), MAX_LIVE_KEYS);
  if (!made) throw new AppError('api_key_limit');
  return made;
}

export const listApiKeys = (db: Db, caller: KeyCaller) => keysOf(db, caller.accountId, LISTED);

export async function revokeApiKey(db: Db, caller: KeyCaller, keyId: string): Promise<ApiKeyRow> {
  if (keyId === caller.keyId) throw new AppError('invalid_state', 'A key cannot revoke itself: revoke it with another key.');
  const revoked = canBeStoredId(keyId) ? await revokeKey(db, keyId, actor(caller), caller.accountId) : null;
  if (!revoked) throw new AppError('api_key_not_found');
  return revoked;
}

export const listAuditEvents = (db: Db, caller: KeyCaller, limit: number) => auditEventsOf(db, caller.accountId, limit);
