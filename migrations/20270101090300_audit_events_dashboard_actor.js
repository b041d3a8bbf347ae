// Why: changes made in the partner dashboard (issue 48) are written to the audit log under the person who made
// them: a new actor type, `dashboard_user` (its id the user's), beside `api_key` and `operator`.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_type_check');
  await knex.raw(
    "ALTER TABLE audit_events ADD CONSTRAINT audit_events_actor_type_check CHECK (actor_type IN ('api_key', 'operator', 'dashboard_user'))",
  );
};

exports.down = async function down(knex) {
  await knex.raw("DELETE FROM audit_events WHERE actor_type = 'dashboard_user'");
  await knex.raw('ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_type_check');
  await knex.raw("ALTER TABLE audit_events ADD CONSTRAINT audit_events_actor_type_check CHECK (actor_type IN ('api_key', 'operator'))");
};
