import type { Knex } from 'knex';

/**
 * Statements of payment creation in this database waiting on a lock. pg_stat_activity shows the start of a
 * statement's text (track_activity_query_size), which for the creation statement is its `unnest` of the creations.
 */
export async function creationsWaitingOnLocks(db: Knex): Promise<number> {
  const { rows } = await db.raw(`SELECT count(*) AS n FROM pg_stat_activity
    WHERE wait_event_type = 'Lock' AND datname = current_database() AND query LIKE 'WITH r AS%unnest(%'`);
  return Number(rows[0].n);
}
