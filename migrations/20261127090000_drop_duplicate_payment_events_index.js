// Why: payment_events_payment_idx (payment_id, version) repeats the unique constraint on the same columns
// (payment_events_payment_id_version_unique, which is itself a btree index every lookup by payment can use).
// Every payment change wrote both; creation (one payment and its payment.created event) maintains one index less.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('DROP INDEX IF EXISTS payment_events_payment_idx');
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.raw('CREATE INDEX IF NOT EXISTS payment_events_payment_idx ON payment_events (payment_id, version)');
};
