// Which failures mean "the database cannot serve us right now" (a 503 with Retry-After, worth retrying)
// rather than a bug (500): it is down or restarting (over TCP or a Unix socket), refuses or drops connections,
// the pool waited too long for a connection, or a statement ran past statement_timeout.

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATE: class 08 connection exception; 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03
// cannot_connect_now (starting up, shutting down, recovering); 57014 query_canceled (statement_timeout);
// 53300 too_many_connections.
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '57014', '53300']);

// node-postgres and knex say it only in words. A failed query's message is knex's "<sql> - " followed by
// the driver's words: they are matched after that prefix too.
const MESSAGES = [
  /^Connection terminated/, // "Connection terminated unexpectedly", "... due to connection timeout"
  /^Client has encountered a connection error and is not queryable/,
  /^timeout expired$/, // connectionTimeoutMillis
  /^Knex: Timeout acquiring a connection/, // acquireConnectionTimeout
];

/** Seconds a client should wait before retrying while the database is unavailable. */
export const DB_RETRY_AFTER_SECONDS = 5;

export function isDatabaseUnavailable(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 3) return false;
  const { code, name, message, cause, errors } = e as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (name === 'KnexTimeoutError') return true;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  // A Unix-socket connection (DATABASE_URL's `host` a folder) to a server that is down: its socket file is gone.
  if (code === 'ENOENT' && (e as { syscall?: unknown }).syscall === 'connect') return true;
  if (typeof message === 'string' && MESSAGES.some((m) => m.test(message) || m.test(message.slice(message.lastIndexOf(' - ') + 3))))
    return true;
  // Node's connect to several addresses fails with an AggregateError; wrappers keep the original as cause.
  if (Array.isArray(errors) && errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}
