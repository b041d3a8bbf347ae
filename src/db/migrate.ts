import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../paths';
import { Db, knexOf, withoutStatementTimeout } from './knex';

// Forward-only, timestamped migrations in migrations/ (plain CommonJS so every entry point, built or
// under test, loads the same files).
export const migrationsDir = path.join(projectRoot, 'migrations');

/**
 * Several processes may start at once. Knex's own lock row does not cover that: on a fresh database
 * every process races to create knex's bookkeeping tables and all but one fail ("relation already
 * exists"). So the whole run is serialised with a PostgreSQL advisory lock held by a transaction on one
 * pool connection (the migrations run on another, hence a pool of at least 2); the processes that
 * waited find nothing left to do.
 */
export async function migrateLatest(handle: Db): Promise<string[]> {
  const pool = knexOf(handle);
  // Not bound by the query pool's statement timeout: a migration (or the wait for another process's) may
  // take longer than any API statement.
  const db = withoutStatementTimeout(pool);
  try {
    return await db.transaction(async (trx) => {
      await trx.raw("SELECT pg_advisory_xact_lock(hashtext('paygate:migrations'))");
      const [, applied] = await db.migrate.latest({ directory: migrationsDir, loadExtensions: ['.js'] });
      return applied as string[];
    });
  } finally {
    if (db !== pool) await db.destroy();
  }
}

/**
 * The migrations of this release not applied to the database yet, read without writing anything (knex's own
 * listing would create its bookkeeping tables on a database that has none).
 */
export async function pendingMigrations(handle: Db): Promise<string[]> {
  const knex = knexOf(handle);
  const files = fs
    .readdirSync(migrationsDir)
    .filter((f) => f.endsWith('.js'))
    .sort();
  const { rows } = await knex.raw("SELECT to_regclass('knex_migrations') IS NOT NULL AS present");
  const applied = new Set<string>(rows[0].present ? await knex('knex_migrations').pluck('name') : []);
  return files.filter((f) => !applied.has(f));
}
