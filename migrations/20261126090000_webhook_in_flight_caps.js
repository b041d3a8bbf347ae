// Why: attempts in flight are capped per endpoint and per account across all processes (one partner's slow
// receiver must not take every delivery slot). Each claim counts the account's leases in force, so those
// rows get a small partial index (a lease is cleared when its attempt is recorded; one left by a dead
// process stays until the delivery is claimed again). When an attempt ends, the account's next delivery
// is taken from the endpoint with the fewest attempts in flight, due first: (endpoint_id, next_attempt_at)
// replaces the index on endpoint_id alone, which it covers.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`CREATE INDEX webhook_deliveries_leased_idx ON webhook_deliveries (account_id, endpoint_id)
    WHERE status = 'pending' AND locked_until IS NOT NULL`);
  await knex.raw(`CREATE INDEX webhook_deliveries_endpoint_due_idx ON webhook_deliveries (endpoint_id, next_attempt_at, id)
    WHERE status = 'pending'`);
  await knex.raw('DROP INDEX webhook_deliveries_endpoint_pending_idx');
};

exports.down = async function down() {
  throw new Error('Migrations are forward-only.');
};
