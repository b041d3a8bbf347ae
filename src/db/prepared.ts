import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { QueryResult } from 'pg';
import { Db, isTransaction, knexOf } from './knex';

/** What a prepared statement answers: node-postgres's result (the rows, the command, the count). */
export type PreparedResult = Pick<QueryResult, 'rows' | 'rowCount' | 'command'>;
export type Prepared = (db: Db, bindings: readonly Knex.Value[]) => Promise<PreparedResult>;

interface PooledConnection {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<QueryResult>;
}
interface PoolClient {
  acquireConnection(): Promise<PooledConnection>;
  releaseConnection(connection: PooledConnection): Promise<void>;
}

/**
 * A hot statement run as a named prepared statement: PostgreSQL parses and plans it once per connection
 * instead of on every call. For the statements of payment creation and status, planning cost PostgreSQL
 * more than executing (figures in docs/performance.md).
 *
 * On the pool it is sent straight to a pooled connection in node-postgres's form ($1, $2, ... made once from
 * its `?` placeholders, as knex makes them), not through knex's query builder, which turned the SQL text into
 * that form on every call (regular expressions over the whole text, a query id, debug hooks: a large share of a
 * status read's CPU in the service, more for payment creation's long statement; docs/performance.md). The pool, its acquire timeout and
 * its statement timeout are knex's, as for every other query. Inside a transaction it goes through knex, on
 * the transaction's connection.
 *
 * Its SQL names its columns: a statement that reads `*` would fail on every connection that prepared it
 * ("cached plan must not change result type") once a migration adds a column, so `*` is refused here.
 * Bindings are values (no knex raw SQL or identifiers: `??` is refused).
 * Behind PgBouncer in transaction mode, named prepared statements need PgBouncer 1.21 or later with
 * `max_prepared_statements` set (docs/operations.md, "Connections").
 *
 * `planEachCall`: sent the same way but unnamed, so PostgreSQL plans it on every call for the values it is given.
 * For a statement whose best plan depends on its values and on a table that grows fast: a generic plan of the
 * payment read by `id = ANY(ids)`, made while `payments` held one row, was a sequential scan, and it stayed
 * cached as the table grew until autoanalyze (found by make bench; docs/performance.md). A statement that
 * serves many calls at once (lib/batches.ts) pays its planning once for all of them.
 */
export function preparedStatement(name: string, sql: string, { planEachCall = false } = {}): Prepared {
  if (/(SELECT|,)\s*(\w+\.)?\*\s*(,|FROM\b)/i.test(sql)) throw new Error(`prepared statement ${name} reads *: name the columns`);
  if (/(^|[^\\])\?\?/.test(sql)) throw new Error(`prepared statement ${name} names an identifier (??): write it in the SQL`);
  const { text, count } = positional(sql);
  return async (db, bindings) => {
    if (bindings.length !== count) throw new Error(`prepared statement ${name}: expected ${count} bindings, got ${bindings.length}`);
    if (bindings.some((b) => b === undefined)) throw new Error(`prepared statement ${name}: undefined binding`);
    const knex = knexOf(db);
    if (isTransaction(db)) {
      const raw = knex.raw(sql, bindings);
      return planEachCall ? raw : raw.options({ name });
    }
    const client = knex.client as PoolClient;
    const connection = await client.acquireConnection();
    try {
      return await connection.query(planEachCall ? { text, values: bindings as unknown[] } : { name, text, values: bindings as unknown[] });
    } finally {
      await client.releaseConnection(connection);
    }
  };
}

/** knex's placeholders in node-postgres's form: each `?` numbered in turn, `\?` a literal `?` (knex's postgres positionBindings). */
function positional(sql: string): { text: string; count: number } {
  let count = 0;
  const text = sql.replace(/(\\*)(\?)/g, (_match, escapes: string) => (escapes.length % 2 ? '?' : `$${++count}`));
  return { text, count };
}

const byText = new Map<string, Prepared>();
/**
 * `query` (built by knex, with nested builders) run as a prepared statement named after its SQL text: for
 * statements whose text varies with a few choices (one text per kind of change), each text is prepared once.
 */
export function preparedByText(db: Db, query: Knex.Raw): Promise<PreparedResult> {
  const { sql, bindings } = query.toSQL();
  let statement = byText.get(sql);
  if (!statement)
    byText.set(sql, (statement = preparedStatement(`paygate_${createHash('sha256').update(sql).digest('hex').slice(0, 16)}`, sql)));
  return statement(db, bindings as Knex.Value[]);
}
