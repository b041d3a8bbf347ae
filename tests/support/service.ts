import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import { generatePrivateKey } from 'viem/accounts';
import { loadConfig } from '../../src/config';
import { dbTimeouts } from '../../src/db/connect';
import { createAccount, createApp, createKey, setCollectThreshold, setFee, setSettlementMode } from '../../src/db/accountsRepo';
import { createDb, type Db } from '../../src/db/knex';
import { createLogger } from '../../src/logger';
import { startServer, RunningServer } from '../../src/server';
import SERVICE_ENV from './service-env.json';

/** The environment every test service runs with, in process or started by the contract gate (stack.mjs). */

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

export interface TestService {
  /** Where requests that follow the contract go (through the Prism proxy in the contract gate). */
  url: string;
  /**
   * Where requests that deliberately break the contract go (bad input, missing headers, wrong methods):
   * always the service itself, because a validating proxy would answer them in its place.
   */
  directUrl: string;
  db: Knex;
  close(): Promise<void>;
}

/** True when the tests run against a service started elsewhere (TEST_BASE_URL: the suite through Prism). */
const externalService = Boolean(process.env.TEST_BASE_URL);

/**
 * The real service (Koa + openapi-backend + PostgreSQL) on a free port, with response validation on.
 * With TEST_BASE_URL set (the contract gate), no server is started: tests talk to that URL (Prism in front
 * of the gate's service), TEST_DIRECT_URL (default: the same) for contract-breaking requests, and read the
 * gate's database through DATABASE_URL. Tests that need a service environment of their own are in files named
 * *.own.test.ts (scripts/jest-parts.mjs), which run only in process.
 */
export async function startTestService(env: Record<string, string> = {}): Promise<TestService> {
  if (externalService) {
    const differs = Object.entries(env).filter(([k, v]) => (SERVICE_ENV as Record<string, string>)[k] !== v);
    if (differs.length)
      throw new Error('startTestService(env) cannot apply env to an external service (TEST_BASE_URL); skip the test there');
    const db = createDb(process.env.DATABASE_URL!, 20);
    return {
      url: process.env.TEST_BASE_URL!,
      directUrl: process.env.TEST_DIRECT_URL ?? process.env.TEST_BASE_URL!,
      db,
      close: () => db.destroy(),
    };
  }
  // A service on another RPC URL (a proxy of the suite's chain) writes its devnet.json to a folder of its own: in the
  // suite's DEVNET_DIR it would replace the chain that `admin devnet` commands of other test files read.
  const own = env.DEVNET_RPC_URL !== undefined && env.DEVNET_DIR === undefined;
  const devnetDir = own ? { DEVNET_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-service-devnet-')) } : {};
  // Relayer keys of its own (funded with devnet gas at start), so services on other databases never share nonces.
  const config = loadConfig(
    {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      VALIDATE_RESPONSES: 'true',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DEVNET_RELAYER_KEYS: generatePrivateKey(),
      ...SERVICE_ENV,
      ...devnetDir,
      ...env,
    },
    root,
  );
  // A larger pool than the default (tests fire many requests at once), unless the test sets DB_POOL_MAX.
  const db = createDb(config.databaseUrl!, env.DB_POOL_MAX ? config.dbPoolMax : 20, dbTimeouts(config));
  const server: RunningServer = await startServer(config, db, config.databaseUrl!, createLogger(config.logLevel));
  return {
    url: server.url,
    directUrl: server.url,
    db,
    close: async () => {
      await server.close();
      await db.destroy();
      if (devnetDir.DEVNET_DIR) fs.rmSync(devnetDir.DEVNET_DIR, { recursive: true, force: true });
    },
  };
}

/** The built admin command line, exactly as operators run it. */
export async function admin(...args: string[]): Promise<Record<string, string>> {
  const { stdout } = await run('node', [path.join(root, 'dist/src/cli/admin.js'), ...args], { env: process.env, cwd: root });
  return JSON.parse(stdout);
}

/** The admin command line against another database (a test's own, see freshDb.ts). */
export async function adminOn(databaseUrl: string, ...args: string[]): Promise<Record<string, string>> {
  const { stdout } = await run('node', [path.join(root, 'dist/src/cli/admin.js'), ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    cwd: root,
  });
  return JSON.parse(stdout);
}

/** The admin command line with extra environment; never throws: exit code, parsed stdout (if any) and stderr. */
export async function adminWith(env: Record<string, string>, ...args: string[]): Promise<{ code: number; out: any; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [path.join(root, 'dist/src/cli/admin.js'), ...args], {
      env: { ...process.env, ...env },
      cwd: root,
    });
    return { code: 0, out: JSON.parse(stdout), stderr };
  } catch (e) {
    const { code, stdout, stderr } = e as { code: number; stdout: string; stderr: string };
    return { code, out: stdout ? JSON.parse(stdout) : undefined, stderr };
  }
}

// Test setup: accounts and keys made in this process by the functions the admin command line calls
// (src/db/accountsRepo.ts), on the database the test's services use, rather than by a new process each. The
// command line itself is tested as operators run it, through admin() (foundation, adminReadOnly, devnet tests).
async function onDatabase<T>(databaseUrl: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = createDb(databaseUrl, 1);
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

/** An account with a partner key, on the test database or on `databaseUrl` (migrated). */
export function newAccount(
  name = 'Test partner',
  databaseUrl = process.env.DATABASE_URL!,
): Promise<{ accountId: string; apiKey: string; keyId: string }> {
  return onDatabase(databaseUrl, (db) => createAccount(db, name));
}

/** A new API key of the account (which must exist), on the test database or on `databaseUrl`; live unless `mode`. */
export function newKey(
  accountId: string,
  type: 'partner' | 'wallet',
  databaseUrl = process.env.DATABASE_URL!,
  mode: 'live' | 'test' = 'live',
): Promise<{ keyId: string; apiKey: string }> {
  return onDatabase(
    databaseUrl,
    async (db) => (await createKey(db, accountId, type, mode)) ?? Promise.reject(new Error(`no account ${accountId}`)),
  );
}

/** An update of account `accountId` on the test database by a repository function; throws when it has no such account. */
async function updateAccount(accountId: string, update: (db: Db) => Promise<unknown>): Promise<void> {
  if (!(await onDatabase(process.env.DATABASE_URL!, update))) throw new Error(`no account ${accountId}`);
}

/** Sets how the account's payments settle on the test database, as `admin accounts set-mode` does. */
export const setAccountMode = (accountId: string, mode: 'collector' | 'direct') =>
  updateAccount(accountId, (db) => setSettlementMode(db, accountId, mode));

/** Sets the account's fee per payment (minor units + basis points), as `admin accounts set-fee` does. */
export const setAccountFee = (accountId: string, baseMinor: bigint, bps: number) =>
  updateAccount(accountId, (db) => setFee(db, accountId, baseMinor, bps));

/** Sets the amount from which buyers' data is collected, as `admin accounts set-threshold` does. */
export const setAccountThreshold = (accountId: string, minor: bigint) =>
  updateAccount(accountId, (db) => setCollectThreshold(db, accountId, minor));

/** A new live gateway app of the account on the test database, as `admin apps create` makes it: {appId, clientId}. */
export function newApp(accountId: string, name: string): Promise<{ appId: string; clientId: string }> {
  return onDatabase(
    process.env.DATABASE_URL!,
    async (db) => (await createApp(db, accountId, name, 'live')) ?? Promise.reject(new Error(`no account ${accountId}`)),
  );
}

export interface Res<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export function client(baseUrl: string, defaults: Record<string, string> = {}) {
  return async function call<T = any>(
    method: string,
    path: string,
    opts: { body?: unknown; raw?: string; headers?: Record<string, string> } = {},
  ): Promise<Res<T>> {
    const headers: Record<string, string> = { ...defaults, ...(opts.headers ?? {}) };
    let body: string | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const r = await fetch(baseUrl + path, { method, headers, body });
    const text = await r.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: r.status, headers: r.headers, body: parsed as T, text };
  };
}
