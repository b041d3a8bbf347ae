import fs from 'node:fs';
import path from 'node:path';
import { createDb } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';
import { schemaSnapshot } from '../../src/db/schemaSnapshot';
import { projectRoot } from '../../src/paths';
import { freshDatabase } from '../support/freshDb';

// db/schema.sql shows every table as the migrations leave it; a migration that changes the schema without
// `make schema` (and the regenerated file committed) fails here.
describe('db/schema.sql', () => {
  it('is the schema of a fresh database migrated to the latest migration', async () => {
    const fresh = await freshDatabase('paygate_schema');
    const db = createDb(fresh.url, 2);
    try {
      await migrateLatest(db);
      const stored = fs.readFileSync(path.join(projectRoot, 'db/schema.sql'), 'utf8');
      expect(await schemaSnapshot(db)).toBe(stored);
    } finally {
      await db.destroy();
      await fresh.drop();
    }
  });
});
