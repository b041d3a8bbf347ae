// make schema: db/schema.sql, the schema of a fresh database migrated to the latest migration (from the built
// service: make build first, which make schema does). --check compares instead of writing, and fails on drift;
// tests/integration/schema.own.test.ts makes the same comparison in make test.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startThrowawayPostgres } from './throwaway-pg.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { createDb } = require(path.join(root, 'dist/src/db/knex.js'));
const { migrateLatest } = require(path.join(root, 'dist/src/db/migrate.js'));
const { schemaSnapshot } = require(path.join(root, 'dist/src/db/schemaSnapshot.js'));

const file = path.join(root, 'db/schema.sql');
const pg = await startThrowawayPostgres({ database: 'paygate_schema' });
let text;
try {
  const db = createDb(pg.url, 2);
  try {
    await migrateLatest(db);
    text = await schemaSnapshot(db);
  } finally {
    await db.destroy();
  }
} finally {
  await pg.stop();
}
if (process.argv.includes('--check')) {
  const stored = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (stored !== text) {
    process.stderr.write('db/schema.sql is not the schema the migrations make: run make schema and commit it\n');
    process.exit(1);
  }
  process.stdout.write('db/schema.sql is up to date\n');
} else {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  process.stdout.write(`wrote ${path.relative(root, file)}\n`);
}
