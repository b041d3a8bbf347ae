import { createDb } from '../../src/db/knex';
import { migrateLatest, migrationsDir } from '../../src/db/migrate';
import { freshDatabase } from '../support/freshDb';
import { adminWith } from '../support/service';

// The built admin command: commands that only read (`assets list`, `settlements list`) run no migrations and
// write nothing; on a database whose schema is behind this release they fail, saying so, and change nothing.
// Commands that write migrate first, as before. Each case on a database of its own.

/** The same database, on sessions that PostgreSQL refuses every write on. */
const readOnly = (url: string) => {
  const u = new URL(url);
  u.searchParams.set('options', '-c default_transaction_read_only=on');
  return u.toString();
};

describe('admin: read-only commands', () => {
  const dbs: { drop(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const d of dbs) await d.drop();
  });
  async function database(behind: number) {
    const fresh = await freshDatabase('paygate_admin_ro');
    dbs.push(fresh);
    const db = createDb(fresh.url, 2);
    try {
      await migrateLatest(db);
      for (let i = 0; i < behind; i++) await db.migrate.down({ directory: migrationsDir, loadExtensions: ['.js'] });
      const migrations = async () => (await db('knex_migrations').pluck('name')).sort();
      return { url: fresh.url, applied: await migrations() };
    } finally {
      await db.destroy();
    }
  }

  it('at the current schema they answer on a session that refuses writes', async () => {
    const { url } = await database(0);
    const assets = await adminWith({ DATABASE_URL: readOnly(url) }, 'assets', 'list');
    expect({ code: assets.code, stderr: assets.stderr }).toEqual({ code: 0, stderr: '' });
    expect(assets.out.map((a: { symbol: string }) => a.symbol)).toContain('USDC');
    const held = await adminWith({ DATABASE_URL: readOnly(url) }, 'settlements', 'list');
    expect({ code: held.code, out: held.out }).toEqual({ code: 0, out: [] });
    // A command that writes is refused there, by PostgreSQL (its migrations take the migration lock).
    const write = await adminWith({ DATABASE_URL: readOnly(url) }, 'accounts', 'create', '--name', 'Nope');
    expect(write.code).toBe(1);
    expect(JSON.parse(write.stderr).error).toMatch(/read-only transaction/);
  }, 60_000);

  it('behind the current schema they fail clearly and migrate nothing; a command that writes migrates', async () => {
    const { url, applied } = await database(1);
    for (const args of [
      ['assets', 'list'],
      ['settlements', 'list'],
    ]) {
      const r = await adminWith({ DATABASE_URL: url }, ...args);
      expect({ code: r.code, out: r.out }).toEqual({ code: 1, out: undefined });
      expect(JSON.parse(r.stderr)).toEqual({
        error: expect.stringMatching(
          /^the database schema is behind this release: 1 migration not applied \(\d{14}_[a-z_]+\.js\); run `make migrate`/,
        ),
      });
    }
    const db = createDb(url, 2);
    try {
      expect((await db('knex_migrations').pluck('name')).sort()).toEqual(applied);
      const created = await adminWith({ DATABASE_URL: url }, 'accounts', 'create', '--name', 'Migrates');
      expect(created.code).toBe(0);
      expect((await db('knex_migrations').pluck('name')).length).toBe(applied.length + 1);
      expect((await adminWith({ DATABASE_URL: readOnly(url) }, 'assets', 'list')).code).toBe(0);
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
