import knexFactory, { Knex } from 'knex';
import pg from 'pg';

// numeric/bigint columns come back as strings (never floats); money stays exact end to end.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);

/**
 * The database as every layer above src/db sees it: the pool or a transaction, opaque. Use cases and handlers
 * hold one and hand it to repositories; only src/db turns it back into Knex (knexOf) and queries it. A Knex
 * pool or transaction is a Db as it is, so nothing converts on the way up.
 */
export interface Db {
  readonly client: unknown;
}

declare const inTransactionBrand: unique symbol;
/**
 * A Db that is a transaction, as inTransaction hands it over: what a repository function takes when its
 * statements only mean something inside one (a lock held until commit, a write that commits with others).
 */
export interface Tx extends Db {
  readonly [inTransactionBrand]: true;
}

/** Inside src/db only: the handle as the query builder it is. */
export const knexOf = (db: Db): Knex => db as Knex;

/** Whether `db` is a transaction (or a savepoint in one) rather than the pool. */
export const isTransaction = (db: Db): boolean => (knexOf(db) as { isTransaction?: boolean }).isTransaction === true;

/**
 * Independent reads of `db`: side by side on the pool, one after another in a transaction, whose one connection
 * runs one query at a time (node-postgres queues a second one, deprecated, and pg 9 refuses it).
 */
export async function readsOf<T extends readonly unknown[]>(db: Db, reads: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  const out: unknown[] = [];
  if (!isTransaction(db)) out.push(...(await Promise.all(reads.map((read) => read()))));
  else for (const read of reads) out.push(await read());
  return out as unknown as T;
}

/** Answers when the database does (readiness); throws when it is not reachable. */
export async function ping(db: Db): Promise<void> {
  await knexOf(db).raw('select 1');
}

/** Runs fn in a transaction of db (a savepoint when db already is one): committed when fn resolves, rolled back when it throws. */
export function inTransaction<T>(db: Db, fn: (trx: Tx) => Promise<T>): Promise<T> {
  return knexOf(db).transaction((trx) => fn(asTx(trx)));
}

/** Runs fn in a READ ONLY transaction of db: PostgreSQL refuses any write it attempts. */
export function inReadOnlyTransaction<T>(db: Db, fn: (trx: Tx) => Promise<T>): Promise<T> {
  return knexOf(db).transaction(async (trx) => {
    await trx.raw('SET TRANSACTION READ ONLY');
    return fn(asTx(trx));
  });
}

/** Inside src/db only: a Knex transaction handed to code above src/db. */
export const asTx = (trx: Knex.Transaction): Tx => trx as unknown as Tx;

export interface DbTimeouts {
  /** How long a query waits for a pool connection (or for a new connection to open) before failing. */
  acquireTimeoutMs?: number;
  /** PostgreSQL statement_timeout of every pooled connection; 0 or absent: none. */
  statementTimeoutMs?: number;
}

/**
 * The query pool. Bounded waits make a database that is down or stalled an answer within seconds (503
 * service_unavailable, see src/db/unavailable.ts) instead of requests that hang: a connection is waited
 * for at most acquireTimeoutMs (also the connect timeout), a statement runs at most statementTimeoutMs.
 */
export function createDb(url: string, poolMax = 10, { acquireTimeoutMs = 10_000, statementTimeoutMs = 0 }: DbTimeouts = {}): Knex {
  return knexFactory({
    client: 'pg',
    connection: {
      connectionString: url,
      application_name: 'paygate',
      connectionTimeoutMillis: acquireTimeoutMs,
      ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
    },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: acquireTimeoutMs,
    // Knex would print pool errors with console.log; they reach the caller, which logs them as it should.
    log: { warn() {}, error() {}, debug() {}, deprecate() {} },
  });
}

/**
 * A small pool on the same database without the statement timeout, or `db` itself when it has none:
 * migrations may legitimately run (or wait for another process's) longer than any API statement.
 */
export function withoutStatementTimeout(db: Knex): Knex {
  const config = db.client.config as Knex.Config;
  const connection = config.connection as Record<string, unknown> | undefined;
  if (!connection || typeof connection !== 'object' || !connection.statement_timeout) return db;
  const { statement_timeout: _none, ...rest } = connection;
  return knexFactory({ ...config, connection: rest, pool: { min: 0, max: 2 } });
}
