import knex from 'knex';

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
      const d = knex({ client: 'pg', connection: process.env.DATABASE_URL! });
      try {
        await d.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await d.destroy();
      }
    },
  };
}
