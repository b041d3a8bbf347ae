// Why: expired quotes were never deleted (issue 44, finding 5): the sweep now deletes them a batch at a time, oldest
// expiry first (src/db/optionsRepo.ts, purgeExpiredOptions). An index on the expiry keeps each batch a read of the
// rows it deletes, whatever the number of quotes still valid. Not CONCURRENTLY, for the reason 20261207090100 gives:
// the build blocks new quotes for as long as it takes.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('CREATE INDEX payment_options_expires_at_idx ON payment_options (expires_at)');
};

exports.down = async function down(knex) {
  await knex.raw('DROP INDEX payment_options_expires_at_idx');
};
