// Why: the operator's metrics (src/operatorMetrics.ts) count the relayer transactions of the last day by outcome on
// every scrape (cached); without an index on created_at that count scans every transaction ever signed.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('CREATE INDEX chain_transactions_created_idx ON chain_transactions (created_at)');
};

exports.down = async function down(knex) {
  await knex.raw('DROP INDEX chain_transactions_created_idx');
};
