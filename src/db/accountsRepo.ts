import { issueClientId, issueKey, KeyType } from '../domain/apiKeys';
import { newId } from '../domain/ids';
import { Mode, testScopeOf } from '../domain/mode';
import { STABLE_VERSION } from '../domain/versions';
import { recordAudit } from './auditRepo';
import { Db, knexOf } from './knex';

/**
 * An API key as authentication needs it: its hashed secret and its account's default API version. `accountId`:
 * the scope it acts in (a test key's is its account's test scope, src/domain/mode.ts).
 */
export interface StoredKey {
  id: string;
  accountId: string;
  mode: Mode;
  type: KeyType;
  secretHash: Buffer;
  revokedAt: Date | null;
  /** Read-only keys may call GET operations only (403 key_restricted); a key past `expiresAt` is invalid (401). */
  readOnly: boolean;
  expiresAt: Date | null;
  /** The merchants the key is limited to (403 key_restricted for any other operation); null: not limited. */
  merchantIds: string[] | null;
  defaultVersion: string;
}

/** A registered app of the gateway (App-Id + Client-Id), as authentication needs it. */
export interface StoredApp {
  id: string;
  accountId: string;
  mode: Mode;
  clientHash: Buffer;
  revokedAt: Date | null;
  defaultVersion: string;
}

export async function createAccount(db: Db, name: string) {
  const knex = knexOf(db);
  const accountId = newId('acct');
  return knex.transaction(async (trx) => {
    await trx('accounts').insert({ id: accountId, name, default_version: STABLE_VERSION });
    const key = await insertKey(trx, accountId, 'partner', 'live');
    return { accountId, ...key };
  });
}

/** What a partner may set on a key it makes (src/db/apiKeysRepo.ts); the operator's keys have none of it. */
export interface KeyTerms {
  name: string;
  readOnly: boolean;
  expiresAt: Date | null;
  merchantIds: string[] | null;
  createdBy: string | null;
}

/** Issues a key of the scope and stores its hashed secret: the key, shown once. */
export async function insertKey(db: Db, scope: string, type: KeyType, mode: Mode, terms?: KeyTerms) {
  const knex = knexOf(db);
  const k = issueKey(mode);
  await knex('api_keys').insert({
    id: k.keyId,
    account_id: scope,
    type,
    secret_hash: k.secretHash,
    ...(terms && {
      name: terms.name,
      read_only: terms.readOnly,
      expires_at: terms.expiresAt,
      merchant_ids: terms.merchantIds,
      created_by: terms.createdBy,
    }),
  });
  return { keyId: k.keyId, apiKey: k.apiKey };
}

/**
 * The scope a credential of `mode` acts in (the account, or its test scope, made at the first test credential
 * with the account's settings); null when there is no such (live) account.
 */
export async function scopeFor(db: Db, accountId: string, mode: Mode): Promise<string | null> {
  const knex = knexOf(db);
  const account = await knex('accounts').where({ id: accountId, livemode: true }).first('id');
  if (!account) return null;
  if (mode === 'live') return accountId;
  const scope = testScopeOf(accountId);
  // No conflict target: a credential made at the same moment may make the scope first, and its row conflicts on
  // live_account_id as well as on id.
  await knex.raw(
    `INSERT INTO accounts (id, name, default_version, collect_data_threshold_minor, settlement_mode, fee_base_minor, fee_bps,
       livemode, live_account_id)
     SELECT ?, name, default_version, collect_data_threshold_minor, settlement_mode, fee_base_minor, fee_bps, false, id
     FROM accounts WHERE id = ? ON CONFLICT DO NOTHING`,
    [scope, accountId],
  );
  return scope;
}

/** Null when the account does not exist. */
export async function createKey(db: Db, accountId: string, type: KeyType, mode: Mode) {
  const scope = await scopeFor(db, accountId, mode);
  if (!scope) return null;
  return knexOf(db).transaction(async (trx) => {
    const key = await insertKey(trx, scope, type, mode);
    await recordAudit(trx, scope, { type: 'operator' }, 'api_key.created', key.keyId);
    return { ...key, mode };
  });
}

/**
 * Channel on which a revocation is announced (the key or app id), so that every process drops the
 * credential from its cache at once.
 */
export const KEY_REVOKED_CHANNEL = 'api_key_revoked';

export async function findKey(db: Db, keyId: string): Promise<StoredKey | undefined> {
  const knex = knexOf(db);
  const r = await knex('api_keys as k')
    .join('accounts as a', 'a.id', 'k.account_id')
    .where('k.id', keyId)
    .first(
      'k.id',
      'k.account_id',
      'k.type',
      'k.secret_hash',
      'k.revoked_at',
      'k.read_only',
      'k.expires_at',
      'k.merchant_ids',
      'a.default_version',
      'a.livemode',
    );
  return (
    r && {
      id: r.id,
      accountId: r.account_id,
      mode: r.livemode ? 'live' : 'test',
      type: r.type,
      secretHash: r.secret_hash,
      revokedAt: r.revoked_at,
      readOnly: r.read_only,
      expiresAt: r.expires_at,
      merchantIds: r.merchant_ids,
      defaultVersion: r.default_version,
    }
  );
}

/** Null when the account does not exist. */
export async function createApp(db: Db, accountId: string, name: string, mode: Mode) {
  const knex = knexOf(db);
  const scope = await scopeFor(db, accountId, mode);
  if (!scope) return null;
  const appId = newId('app');
  const { clientId, clientHash } = issueClientId(mode);
  await knex('apps').insert({ id: appId, account_id: scope, name, client_hash: clientHash });
  return { appId, clientId, mode };
}

/**
 * Null when no such app; otherwise its revocation time (revoking twice keeps the first). Gateway calls
 * with the app are refused (401 invalid_api_key) from the commit on, in every process: apps are not
 * cached (each call reads the row), and the revocation is announced like a key's, so a process that
 * caches credentials drops it at once too.
 */
export async function revokeApp(db: Db, appId: string): Promise<Date | null> {
  const knex = knexOf(db);
  return knex.transaction(async (trx) => {
    const [row] = await trx('apps')
      .where({ id: appId })
      .update({ revoked_at: trx.raw('coalesce(revoked_at, now())') }, ['revoked_at']);
    if (row) await trx.raw('SELECT pg_notify(?, ?)', [KEY_REVOKED_CHANNEL, appId]);
    return row ? (row.revoked_at as Date) : null;
  });
}

export async function findApp(db: Db, appId: string): Promise<StoredApp | undefined> {
  const knex = knexOf(db);
  const r = await knex('apps as p')
    .join('accounts as a', 'a.id', 'p.account_id')
    .where('p.id', appId)
    .first('p.id', 'p.account_id', 'p.client_hash', 'p.revoked_at', 'a.default_version', 'a.livemode');
  return (
    r && {
      id: r.id,
      accountId: r.account_id,
      mode: r.livemode ? 'live' : 'test',
      clientHash: r.client_hash,
      revokedAt: r.revoked_at,
      readOnly: r.read_only,
      expiresAt: r.expires_at,
      defaultVersion: r.default_version,
    }
  );
}

/** An account's settings change for both its scopes (its test scope keeps them); false when no such account. */
async function updateSettings(db: Db, accountId: string, values: Record<string, string | number>): Promise<boolean> {
  const knex = knexOf(db);
  const n = await knex('accounts')
    .where((q) => q.where({ id: accountId, livemode: true }).orWhere({ live_account_id: accountId }))
    .update(values);
  return n > 0;
}

/** False when the account does not exist. */
export async function setCollectThreshold(db: Db, accountId: string, minor: bigint): Promise<boolean> {
  return updateSettings(db, accountId, { collect_data_threshold_minor: minor.toString() });
}

export async function collectThreshold(db: Db, accountId: string): Promise<bigint | null> {
  const knex = knexOf(db);
  const r = await knex('accounts').where({ id: accountId }).first('collect_data_threshold_minor');
  return r?.collect_data_threshold_minor ? BigInt(r.collect_data_threshold_minor) : null;
}

export type SettlementMode = 'collector' | 'direct';

export interface SettlementTerms {
  mode: SettlementMode;
  /** Fee: a base in minor units of the payment currency plus a percentage in basis points. */
  feeBaseMinor: bigint;
  feeBps: number;
}

export async function settlementTerms(db: Db, accountId: string): Promise<SettlementTerms> {
  const knex = knexOf(db);
  const r = await knex('accounts').where({ id: accountId }).first('settlement_mode', 'fee_base_minor', 'fee_bps');
  return { mode: r?.settlement_mode ?? 'collector', feeBaseMinor: BigInt(r?.fee_base_minor ?? 0), feeBps: Number(r?.fee_bps ?? 0) };
}

export async function setFee(db: Db, accountId: string, baseMinor: bigint, bps: number): Promise<boolean> {
  return updateSettings(db, accountId, { fee_base_minor: baseMinor.toString(), fee_bps: bps });
}

export async function setSettlementMode(db: Db, accountId: string, mode: SettlementMode): Promise<boolean> {
  return updateSettings(db, accountId, { settlement_mode: mode });
}

/** The account's own refund reserve terms (null: the operator's apply), undefined when no such account. */
export async function refundReserveTerms(
  db: Db,
  accountId: string,
): Promise<{ bps: number | null; windowMinutes: number | null } | undefined> {
  const r = await knexOf(db)('accounts').where({ id: accountId }).first('refund_reserve_bps', 'refund_reserve_window_minutes');
  return r && { bps: r.refund_reserve_bps ?? null, windowMinutes: r.refund_reserve_window_minutes ?? null };
}

/**
 * Sets (or with null clears) the account's refund reserve terms, for its test scope too (a test scope's own call
 * changes only that scope); false when no such account.
 */
export async function setRefundReserve(db: Db, accountId: string, terms: { bps: number; windowMinutes: number } | null): Promise<boolean> {
  const n = await knexOf(db)('accounts')
    .where((q) => q.where({ id: accountId }).orWhere({ live_account_id: accountId }))
    .update({ refund_reserve_bps: terms?.bps ?? null, refund_reserve_window_minutes: terms?.windowMinutes ?? null });
  return n > 0;
}
