import { issueClientId, issueKey, KeyType } from '../domain/apiKeys';
import { newId } from '../domain/ids';
import { STABLE_VERSION } from '../domain/versions';
import { Db, knexOf } from './knex';

/** An API key as authentication needs it: its hashed secret and its account's default API version. */
export interface StoredKey {
  id: string;
  accountId: string;
  type: KeyType;
  secretHash: Buffer;
  revokedAt: Date | null;
  defaultVersion: string;
}

/** A registered app of the gateway (App-Id + Client-Id), as authentication needs it. */
export interface StoredApp {
  id: string;
  accountId: string;
  clientHash: Buffer;
  revokedAt: Date | null;
  defaultVersion: string;
}

export async function createAccount(db: Db, name: string) {
  const knex = knexOf(db);
  const accountId = newId('acct');
  return knex.transaction(async (trx) => {
    await trx('accounts').insert({ id: accountId, name, default_version: STABLE_VERSION });
    const key = await insertKey(trx, accountId, 'partner');
    return { accountId, ...key };
  });
}

async function insertKey(db: Db, accountId: string, type: KeyType) {
  const knex = knexOf(db);
  const k = issueKey();
  await knex('api_keys').insert({ id: k.keyId, account_id: accountId, type, secret_hash: k.secretHash });
  return { keyId: k.keyId, apiKey: k.apiKey };
}

/** Null when the account does not exist. */
export async function createKey(db: Db, accountId: string, type: KeyType) {
  const knex = knexOf(db);
  const account = await knex('accounts').where({ id: accountId }).first('id');
  if (!account) return null;
  return insertKey(db, accountId, type);
}

/**
 * Channel on which a revocation is announced (the key or app id), so that every process drops the
 * credential from its cache at once.
 */
export const KEY_REVOKED_CHANNEL = 'api_key_revoked';

/** False when no such key. Revoking twice keeps the first revocation time. */
export async function revokeKey(db: Db, keyId: string): Promise<boolean> {
  const knex = knexOf(db);
  return knex.transaction(async (trx) => {
    const n = await trx('api_keys')
      .where({ id: keyId })
      .update({ revoked_at: trx.raw('coalesce(revoked_at, now())') });
    if (n) await trx.raw('SELECT pg_notify(?, ?)', [KEY_REVOKED_CHANNEL, keyId]);
    return n > 0;
  });
}

export async function findKey(db: Db, keyId: string): Promise<StoredKey | undefined> {
  const knex = knexOf(db);
  const r = await knex('api_keys as k')
    .join('accounts as a', 'a.id', 'k.account_id')
    .where('k.id', keyId)
    .first('k.id', 'k.account_id', 'k.type', 'k.secret_hash', 'k.revoked_at', 'a.default_version');
  return (
    r && {
      id: r.id,
      accountId: r.account_id,
      type: r.type,
      secretHash: r.secret_hash,
      revokedAt: r.revoked_at,
      defaultVersion: r.default_version,
    }
  );
}

/** Null when the account does not exist. */
export async function createApp(db: Db, accountId: string, name: string) {
  const knex = knexOf(db);
  const account = await knex('accounts').where({ id: accountId }).first('id');
  if (!account) return null;
  const appId = newId('app');
  const { clientId, clientHash } = issueClientId();
  await knex('apps').insert({ id: appId, account_id: accountId, name, client_hash: clientHash });
  return { appId, clientId };
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
    .first('p.id', 'p.account_id', 'p.client_hash', 'p.revoked_at', 'a.default_version');
  return r && { id: r.id, accountId: r.account_id, clientHash: r.client_hash, revokedAt: r.revoked_at, defaultVersion: r.default_version };
}

/** False when the account does not exist. */
export async function setCollectThreshold(db: Db, accountId: string, minor: bigint): Promise<boolean> {
  const knex = knexOf(db);
  return (await knex('accounts').where({ id: accountId }).update({ collect_data_threshold_minor: minor.toString() })) > 0;
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
  const knex = knexOf(db);
  return (await knex('accounts').where({ id: accountId }).update({ fee_base_minor: baseMinor.toString(), fee_bps: bps })) > 0;
}

export async function setSettlementMode(db: Db, accountId: string, mode: SettlementMode): Promise<boolean> {
  const knex = knexOf(db);
  return (await knex('accounts').where({ id: accountId }).update({ settlement_mode: mode })) > 0;
}
