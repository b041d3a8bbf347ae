// Why: request limits must hold across every process of the service, so their counters live here. Each
// process adds its local counts once per sync period (not one statement per request); rows of past
// windows are purged by the sweeper. UNLOGGED: counters are worth nothing after a crash and need no WAL.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`CREATE UNLOGGED TABLE rate_counters (
    key text NOT NULL,
    "window" bigint NOT NULL,
    count integer NOT NULL,
    ends_at timestamptz(3) NOT NULL,
    PRIMARY KEY (key, "window"))`);
};

exports.down = async function down() {
  throw new Error('Migrations are forward-only.');
};
