// Configuration comes only from environment variables, validated once at start so that a typo fails
// loudly before the service takes traffic.

import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { DataKey, DataKeyring, DEVELOPMENT_KEY_ID, derivedKeyId, developmentKey, isDevelopmentKey, isValidKeyId } from './domain/sealed';
import {
  chainSettings,
  contractWalletSettings,
  devnetSettings,
  type ChainSettings,
  type ContractWalletSettings,
  type DevnetSettings,
} from './config/chains';
import { dashboardSettings, type DashboardSettings } from './config/dashboard';
import { bool, ConfigError, int } from './config/env';
import { LimitsConfig, limitsConfig } from './config/limits';
import { refundSettings, reserveSettings, type RefundSettings, type ReserveSettings } from './config/refunds';

export { ConfigError };

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  publicBaseUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Validate every response against the spec (development and tests). */
  validateResponses: boolean;
  /** Compile every operation's request validator at start (true) or on the operation's first request. */
  precompileValidators: boolean;
  /** Where the embedded PostgreSQL keeps its data when no DATABASE_URL is given. */
  embeddedDataDir: string;
  embeddedPort: number;
  bodyLimitBytes: number;
  defaultPaymentTtlSeconds: number;
  sweepIntervalMs: number;
  /** Lifetime of a gateway option (quote); never beyond the payment's own expiry. */
  quoteTtlSeconds: number;
  /** The EVM chains this instance settles on (CHAINS); empty when the development chain is used. */
  chains: ChainSettings[];
  /** The embedded development chain: used when no chain is configured, never in production. */
  devnet: DevnetSettings | null;
  limits: LimitsConfig;
  /** What refunds may make the relayer spend: a minimum per partial refund and refunds per payment (docs/limits.md). */
  refunds: RefundSettings;
  /** The operator's refund reserve: a share of each collected payment held for refunds for a window (docs/ledger.md). */
  refundReserve: ReserveSettings;
  /** Relayer: how often pending transactions are checked, and when an unmined one counts as stuck. */
  chainPollIntervalMs: number;
  chainStuckAfterMs: number;
  /** The reconciler takes over a payment with no progress for this long (its job was lost or its process died). */
  chainStrandedAfterMs: number;
  /** Failed settlement transfers: tried again after baseMs, doubling; the maxAttempts-th failure holds the settlement. */
  settlementRetry: { maxAttempts: number; baseMs: number };
  /** A settlement schedule's minute in milliseconds (60000; tests shorten it). */
  settlementScheduleUnitMs: number;
  /**
   * A collect or direct transaction that reverted while its authorization is unused and valid: submitted again after
   * baseMs, doubling; the maxAttempts-th revert fails the payment transaction_reverted.
   */
  submitRetry: { maxAttempts: number; baseMs: number };
  /** Fee-raising replacements of one transaction at most (src/usecases/relayer/fees.ts). */
  chainMaxFeeBumps: number;
  /** Whose ERC-1271 signatures confirm accepts (CONTRACT_WALLETS, CONTRACT_WALLETS_ALLOWLIST). */
  contractWallets: ContractWalletSettings;
  /** Reverted submissions of the last 24 h at which confirms are refused, per account and per buyer address. */
  revertBudget: { perAccount: number; perBuyer: number; perCredential: number };
  /** AES-256-GCM keys sealing buyer data and webhook secrets: the first seals, all open (DATA_ENCRYPTION_KEYS or DATA_ENCRYPTION_KEY). */
  dataKeys: DataKeyring;
  /**
   * The sealing key of `dataKeys`; passed to seal/unseal it stands for the whole keyring (code that holds
   * a single Buffer still opens values sealed by older keys). Prefer `dataKeys`.
   */
  dataEncryptionKey: Buffer;
  /** Default amount (minor units) at or above which buyer data is collected; accounts may override. */
  collectDataThresholdMinor: bigint;
  webhooks: WebhookConfig;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`; required in production unless METRICS_PUBLIC=true. */
  metricsToken: string | null;
  /** How long a metric read from the database (payment counts) is reused by later scrapes. */
  metricsDbCacheMs: number;
  /** How long the metrics' ledger check (every holding's balance read from the chain) is reused by later scrapes. */
  metricsLedgerCheckMs: number;
  /**
   * Connections of this process's query pool (at least 2: migrations hold one for their lock), plus 1 LISTEN
   * and up to 4 job-queue ones.
   */
  dbPoolMax: number;
  /** How long a query waits for a pool connection (and a new connection to open): then 503. */
  dbAcquireTimeoutMs: number;
  /** statement_timeout of the query pool's connections (0: none): a stalled statement fails with 503. */
  dbStatementTimeoutMs: number;
  /** On SIGTERM: how long to keep accepting (readiness already failing) before closing the listener. */
  shutdownDelayMs: number;
  /** Service processes on this machine sharing the port (PROCESSES; node:cluster): 1 runs in this process. */
  processes: number;
  /** What this process does (ROLE): `all` serves the API and works the queues, `api` only serves, `worker` only works. */
  role: ServiceRole;
  /** The partner dashboard's sessions and sign-in limits (docs/dashboard.md). */
  dashboard: DashboardSettings;
}

/** `api` answers requests and enqueues work; `worker` runs the queues, the chain monitors and the sweeper; `all` both. */
export type ServiceRole = 'all' | 'api' | 'worker';
const ROLES: readonly ServiceRole[] = ['all', 'api', 'worker'];

/** Serving the API and working the queues, by role. */
export const servesApi = (role: ServiceRole) => role !== 'worker';
export const runsWorkers = (role: ServiceRole) => role !== 'api';

export interface WebhookConfig {
  /** One delivery attempt's deadline (connect, TLS, answer). */
  timeoutMs: number;
  retryBaseMs: number;
  retryMaxDelayMs: number;
  /** Retry window of a delivery (3 days): then it fails. */
  maxAgeMs: number;
  /** An endpoint whose every attempt failed for this long is disabled. */
  disableAfterMs: number;
  /** Allow loopback, RFC 1918 and unique-local addresses (tests, internal receivers); link-local never. */
  allowPrivateNetworks: boolean;
  /** When set, deliveries go to these hosts only (an egress allowlist); others fail without a request. */
  allowedHosts: string[] | null;
  /** Extra trusted CA certificates (PEM), for receivers behind an internal PKI. */
  caPem: string | null;
  /** How often undispatched events are looked for when no change notification arrives. */
  dispatchIntervalMs: number;
  /** A worker holds a delivery for timeoutMs plus this; then another process may take it over. */
  leaseMarginMs: number;
  /** Attempts in flight per process, all endpoints together. */
  maxInFlight: number;
  /** Attempts in flight to one endpoint, across all processes (leased deliveries in PostgreSQL). */
  maxInFlightPerEndpoint: number;
  /** Attempts in flight to one account's endpoints together, across all processes. */
  maxInFlightPerAccount: number;
  /** DNS servers (`ip` or `ip:port`) that webhook hosts are resolved with; null: the system's (resolv.conf). */
  dnsServers: string[] | null;
  /** Deadline of one webhook host resolution (A and AAAA together). */
  dnsTimeoutMs: number;
}

function parseKey(raw: string, name: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  // Never echo a key back, even a malformed one.
  if (key.length !== 32) throw new ConfigError(`${name} must be 32 bytes, as 64 hex digits or base64`);
  return key;
}

/**
 * The keyring sealing stored secrets. DATA_ENCRYPTION_KEYS (`id:key,id:key`, the first seals, all open)
 * or DATA_ENCRYPTION_KEY (one key, its id derived from it); not both. Without either, outside production,
 * the public development key (the caller warns loudly). Outside production the development key always
 * opens too, so rows sealed before a key was configured stay readable (and `keys rotate-data` moves them).
 */
function dataKeys(env: NodeJS.ProcessEnv, nodeEnv: string): DataKeyring {
  const list = env.DATA_ENCRYPTION_KEYS?.trim();
  const single = env.DATA_ENCRYPTION_KEY;
  if (list && single)
    throw new ConfigError('set DATA_ENCRYPTION_KEYS or DATA_ENCRYPTION_KEY, not both (list the single key in DATA_ENCRYPTION_KEYS)');
  let keys: DataKey[];
  if (list) {
    keys = list.split(',').map((entry, i) => {
      const at = entry.indexOf(':');
      const id = entry.slice(0, at).trim();
      if (at < 0 || !isValidKeyId(id))
        throw new ConfigError(`DATA_ENCRYPTION_KEYS entry ${i + 1} must be id:key, the id 1 to 32 of A-Z a-z 0-9 _ . -`);
      const key = parseKey(entry.slice(at + 1).trim(), `DATA_ENCRYPTION_KEYS key "${id}"`);
      if (id === DEVELOPMENT_KEY_ID && !isDevelopmentKey(key))
        throw new ConfigError(`DATA_ENCRYPTION_KEYS: the id "${DEVELOPMENT_KEY_ID}" is reserved for the public development key`);
      return { id, key };
    });
    for (const [i, k] of keys.entries()) {
      const twin = keys.findIndex((o, j) => j !== i && (o.id === k.id || o.key.equals(k.key) || o.id === derivedKeyId(k.key)));
      if (twin >= 0)
        throw new ConfigError(`DATA_ENCRYPTION_KEYS: entries "${k.id}" and "${keys[twin].id}" have the same id or the same key`);
    }
  } else if (single) {
    const key = parseKey(single, 'DATA_ENCRYPTION_KEY');
    keys = [{ id: derivedKeyId(key), key }];
  } else {
    if (nodeEnv === 'production')
      throw new ConfigError('DATA_ENCRYPTION_KEY (or DATA_ENCRYPTION_KEYS) is required in production (32 bytes, hex or base64)');
    keys = [developmentKey()];
  }
  if (nodeEnv === 'production' && isDevelopmentKey(keys[0].key)) {
    throw new ConfigError('the data encryption key is the public development key: set a secret key of your own in production');
  }
  if (nodeEnv !== 'production' && !keys.some((k) => isDevelopmentKey(k.key))) keys.push(developmentKey());
  return new DataKeyring(keys);
}

function metricsToken(env: NodeJS.ProcessEnv, nodeEnv: string): string | null {
  const open = bool(env, 'METRICS_PUBLIC');
  const t = env.METRICS_TOKEN;
  if (!t) {
    // Metrics tell outsiders the traffic, the payment counts and the relayers' state: in production an open
    // endpoint must be a decision, not a default.
    if (nodeEnv === 'production' && !open)
      throw new ConfigError('METRICS_TOKEN is required in production (or set METRICS_PUBLIC=true to serve /metrics without a token)');
    return null;
  }
  if (open) throw new ConfigError('METRICS_PUBLIC=true and METRICS_TOKEN contradict each other: set one');
  // It travels in an Authorization header: no whitespace, and long enough not to be guessed.
  if (!/^[\x21-\x7e]{16,}$/.test(t)) throw new ConfigError('METRICS_TOKEN must be at least 16 printable ASCII characters without spaces');
  return t;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function role(env: NodeJS.ProcessEnv): ServiceRole {
  const v = env.ROLE?.trim() || 'all';
  if (!(ROLES as readonly string[]).includes(v)) throw new ConfigError(`ROLE must be one of ${ROLES.join(', ')}; got ${JSON.stringify(v)}`);
  return v as ServiceRole;
}

const DAY_MS = 24 * 3600 * 1000;

function webhookConfig(env: NodeJS.ProcessEnv, projectRoot: string): WebhookConfig {
  const hosts = (env.WEBHOOK_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  let caPem: string | null = null;
  if (env.WEBHOOK_CA_FILE) {
    try {
      caPem = fs.readFileSync(path.resolve(projectRoot, env.WEBHOOK_CA_FILE), 'utf8');
    } catch (e) {
      throw new ConfigError(`WEBHOOK_CA_FILE cannot be read: ${(e as Error).message}`);
    }
  }
  return {
    timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    retryBaseMs: int(env, 'WEBHOOK_RETRY_BASE_MS', 5_000, 10, 3_600_000),
    retryMaxDelayMs: int(env, 'WEBHOOK_RETRY_MAX_DELAY_MS', 6 * 3600 * 1000, 10, DAY_MS),
    maxAgeMs: int(env, 'WEBHOOK_MAX_AGE_MS', 3 * DAY_MS, 100, 30 * DAY_MS),
    disableAfterMs: int(env, 'WEBHOOK_DISABLE_AFTER_MS', 3 * DAY_MS, 100, 30 * DAY_MS),
    allowPrivateNetworks: bool(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'),
    allowedHosts: hosts.length ? hosts : null,
    caPem,
    dispatchIntervalMs: int(env, 'WEBHOOK_DISPATCH_INTERVAL_MS', 250, 50, 60_000),
    leaseMarginMs: int(env, 'WEBHOOK_LEASE_MARGIN_MS', 30_000, 1000, 600_000),
    maxInFlight: int(env, 'WEBHOOK_MAX_IN_FLIGHT', 32, 1, 1000),
    maxInFlightPerEndpoint: int(env, 'WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT', 4, 1, 1000),
    maxInFlightPerAccount: int(env, 'WEBHOOK_MAX_IN_FLIGHT_PER_ACCOUNT', 8, 1, 1000),
    dnsServers: dnsServers(env, 'WEBHOOK_DNS_SERVERS'),
    dnsTimeoutMs: int(env, 'WEBHOOK_DNS_TIMEOUT_MS', 3000, 100, 30_000),
  };
}

/** `ip`, `ip:port` or `[ipv6]:port`, comma-separated (the forms node:dns setServers takes). */
function dnsServers(env: NodeJS.ProcessEnv, name: string): string[] | null {
  const list = (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!list.length) return null;
  for (const s of list) {
    const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(s) ?? [s, s, undefined];
    if (!isIP(m[1]) || (m[2] !== undefined && (Number(m[2]) < 1 || Number(m[2]) > 65535))) {
      throw new ConfigError(
        `${name} must be a comma-separated list of IP addresses with optional ports (1.1.1.1, 127.0.0.1:5353, [::1]:53), got "${s}"`,
      );
    }
  }
  return list;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, projectRoot = process.cwd()): Config {
  const port = int(env, 'PORT', 8080, 0, 65535);
  const databaseUrl = env.DATABASE_URL ? env.DATABASE_URL : null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const publicBaseUrl = (env.PUBLIC_BASE_URL || `http://localhost:${port || 8080}`).replace(/\/+$/, '');
  try {
    const u = new URL(publicBaseUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new ConfigError(`PUBLIC_BASE_URL must be an http(s) URL, got "${publicBaseUrl}"`);
  }
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const nodeEnv = env.NODE_ENV || 'development';
  // The embedded PostgreSQL is for development: in production every process would start its own database.
  if (nodeEnv === 'production' && !databaseUrl)
    throw new ConfigError('DATABASE_URL is required in production (the embedded PostgreSQL is for development only)');
  const chains = chainSettings(env);
  const keyring = dataKeys(env, nodeEnv);
  const validateResponses = env.VALIDATE_RESPONSES ? env.VALIDATE_RESPONSES === 'true' : nodeEnv !== 'production';
  return {
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl,
    publicBaseUrl,
    logLevel,
    validateResponses,
    precompileValidators: bool(env, 'PRECOMPILE_VALIDATORS', true),
    embeddedDataDir: env.EMBEDDED_PG_DIR || `${projectRoot}/.data/pg`,
    embeddedPort: int(env, 'EMBEDDED_PG_PORT', 54329, 1024, 65535),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 256 * 1024, 1024, 50 * 1024 * 1024),
    defaultPaymentTtlSeconds: int(env, 'PAYMENT_TTL_SECONDS', 300, 10, 30 * 24 * 3600),
    sweepIntervalMs: int(env, 'SWEEP_INTERVAL_MS', 5000, 100, 3_600_000),
    quoteTtlSeconds: int(env, 'QUOTE_TTL_SECONDS', 120, 5, 3600),
    chains,
    devnet: devnetSettings(env, nodeEnv, projectRoot, chains),
    limits: limitsConfig(env),
    refunds: refundSettings(env),
    refundReserve: reserveSettings(env, nodeEnv),
    chainPollIntervalMs: int(env, 'CHAIN_POLL_INTERVAL_MS', 1000, 20, 60_000),
    chainStuckAfterMs: int(env, 'CHAIN_STUCK_AFTER_MS', 60_000, 1000, 3_600_000),
    chainStrandedAfterMs: int(env, 'CHAIN_STRANDED_AFTER_MS', 30_000, 1000, 3_600_000),
    settlementRetry: {
      maxAttempts: int(env, 'SETTLEMENT_MAX_ATTEMPTS', 5, 1, 100),
      baseMs: int(env, 'SETTLEMENT_RETRY_BASE_MS', 5000, 100, 3_600_000),
    },
    settlementScheduleUnitMs: int(env, 'SETTLEMENT_SCHEDULE_UNIT_MS', 60_000, 100, 60_000),
    submitRetry: {
      maxAttempts: int(env, 'SUBMIT_MAX_ATTEMPTS', 3, 1, 20),
      baseMs: int(env, 'SUBMIT_RETRY_BASE_MS', 2000, 100, 600_000),
    },
    chainMaxFeeBumps: int(env, 'CHAIN_MAX_FEE_BUMPS', 10, 0, 100),
    contractWallets: contractWalletSettings(env),
    revertBudget: {
      perAccount: int(env, 'REVERT_BUDGET_PER_ACCOUNT', 10, 1, 1_000_000),
      perBuyer: int(env, 'REVERT_BUDGET_PER_BUYER', 3, 1, 1_000_000),
      perCredential: int(env, 'REVERT_BUDGET_PER_CREDENTIAL', 10, 1, 1_000_000),
    },
    dataKeys: keyring,
    dataEncryptionKey: keyring.primary.key,
    collectDataThresholdMinor: BigInt(int(env, 'COLLECT_DATA_THRESHOLD_MINOR', 100_000, 1, Number.MAX_SAFE_INTEGER)),
    webhooks: webhookConfig(env, projectRoot),
    metricsToken: metricsToken(env, nodeEnv),
    metricsDbCacheMs: int(env, 'METRICS_DB_CACHE_MS', 5000, 0, 3_600_000),
    metricsLedgerCheckMs: int(env, 'METRICS_LEDGER_CHECK_MS', 60_000, 0, 3_600_000),
    dbPoolMax: int(env, 'DB_POOL_MAX', 10, 2, 1000),
    processes: int(env, 'PROCESSES', 1, 1, 64),
    role: role(env),
    dbAcquireTimeoutMs: int(env, 'DB_ACQUIRE_TIMEOUT_MS', 5000, 100, 600_000),
    dbStatementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', 15_000, 0, 3_600_000),
    shutdownDelayMs: int(env, 'SHUTDOWN_DELAY_MS', 0, 0, 600_000),
    dashboard: dashboardSettings(env, publicBaseUrl),
  };
}
