import { Db, knexOf } from './knex';

// Shared request counters of the rate limiter: one row per (key, window), added to by every process.

export async function addRateCounts(
  db: Db,
  batch: { key: string; window: number; count: number; endsAt: Date }[],
): Promise<{ key: string; window: number; count: number }[]> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `INSERT INTO rate_counters (key, "window", count, ends_at)
     SELECT * FROM unnest(?::text[], ?::bigint[], ?::int[], ?::timestamptz[])
     ON CONFLICT (key, "window") DO UPDATE SET count = rate_counters.count + EXCLUDED.count
     RETURNING key, "window", count`,
    [batch.map((b) => b.key), batch.map((b) => b.window), batch.map((b) => b.count), batch.map((b) => b.endsAt)],
  );
  return rows.map((r: { key: string; window: string; count: number }) => ({
    key: r.key,
    window: Number(r.window),
    count: Number(r.count),
  }));
}

export async function purgeRateCounts(db: Db): Promise<number> {
  const knex = knexOf(db);
  return knex('rate_counters').where('ends_at', '<', knex.raw(`now() - interval '1 minute'`)).del();
}

export async function sharedRateCount(db: Db, key: string, window: number): Promise<number> {
  const knex = knexOf(db);
  const r = await knex('rate_counters').where({ key, window }).first('count');
  return r ? Number(r.count) : 0;
}
