import knex from 'knex';
import { createDb } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';

let seq = 0;

/**
 * An empty database of its own on the test cluster (not migrated), for tests whose assertions need
 * exact totals (metrics) or a fresh schema (concurrent migrations). `drop()` removes it.
 */
export async function freshDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(process.env.DATABASE_URL!);
  const name = `${prefix}_${process.pid}_${++seq}`;
  const adminDb = knex({ client: 'pg', connection: process.env.DATABASE_URL! });
  try {
    await adminDb.raw(`CREATE DATABASE ${name}`);
  } finally {
    await adminDb.destroy();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const d = knex({ client: 'pg', connection: base.toString() });
      try {
        await d.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await d.destroy();
      }
    },
  };
}

/**
 * A migrated database of the calling test file's own for all its tests. Call it at the top level of the file:
 * before the file's tests it points DATABASE_URL (the file's copy of process.env, which its services, commands
 * and helpers read) at the new database, and drops it after them.
 */
export function useOwnDatabase(prefix: string): void {
  let fresh: Awaited<ReturnType<typeof freshDatabase>> | null = null;
  beforeAll(async () => {
    fresh = await freshDatabase(prefix);
    const db = createDb(fresh.url, 2);
    try {
      await migrateLatest(db);
    } finally {
      await db.destroy();
    }
    process.env.DATABASE_URL = fresh.url;
  });
  afterAll(() => fresh?.drop());
}
