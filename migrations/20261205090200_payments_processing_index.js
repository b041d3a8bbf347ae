// Why: every confirm counts the payments still in flight (processing) of its buyer, credential and account against
// the budget of reverted submissions (src/db/revertsRepo.ts). Few payments are processing at any time: a partial
// index on them keeps that count a read of those few, whatever the size of the table.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`CREATE INDEX payments_processing_idx ON payments (id) WHERE status = 'processing'`);
};

exports.down = async function down(knex) {
  await knex.raw(`DROP INDEX payments_processing_idx`);
};
