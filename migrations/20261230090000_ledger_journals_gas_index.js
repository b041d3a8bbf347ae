// Why: the operator's metrics (src/operatorMetrics.ts) read the gas each relayer key paid over the last day from
// the ledger's gas journals on every scrape (cached); without an index that read scans every journal ever written.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw("CREATE INDEX ledger_journals_gas_idx ON ledger_journals (created_at) WHERE kind = 'gas'");
};

exports.down = async function down(knex) {
  await knex.raw('DROP INDEX ledger_journals_gas_idx');
};
