import fs from 'node:fs';
import { migrateLatest, migrationsDir } from '../../src/db/migrate';
import { createDb } from '../../src/db/knex';
import { externalService } from '../support/service';
import { freshDatabase } from '../support/freshDb';

const ownDbIt = externalService ? it.skip : it;

describe('migrations at start', () => {
  // Several processes starting at once on a fresh database: knex alone fails all but one of them
  // ("relation knex_migrations_lock already exists"); the advisory lock in migrateLatest serialises them.
  ownDbIt('are safe when several processes migrate the same fresh database at once', async () => {
    const files = fs
      .readdirSync(migrationsDir)
      .filter((f) => f.endsWith('.js'))
      .sort();
    const fresh = await freshDatabase('paygate_migrate');
    const pools = [0, 1, 2, 3].map(() => createDb(fresh.url, 2));
    try {
      const applied = await Promise.all(pools.map((db) => migrateLatest(db)));
      expect(applied.flat().sort()).toEqual(files); // every migration ran once, in one of the processes
      const rows = await pools[0]('knex_migrations').select('name');
      expect(rows.map((r) => r.name).sort()).toEqual(files);
      expect(await Promise.all(pools.map((db) => migrateLatest(db)))).toEqual([[], [], [], []]);
    } finally {
      await Promise.all(pools.map((db) => db.destroy()));
      await fresh.drop();
    }
  });
});
