// Why: the budget of reverted submissions (issue 28, finding 4) counted only reverts at confirmation depth, so
// confirms running meanwhile could go past it. It now also counts submissions still in flight, and a mined
// submission whose receipt says it reverted is in flight until it is final. null: not known (mined before this, or
// found mined without its receipt); such a submission counts as in flight too.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.alterTable('chain_transactions', (t) => {
    t.boolean('receipt_reverted');
  });
};

exports.down = async function down(knex) {
  await knex.schema.alterTable('chain_transactions', (t) => {
    t.dropColumn('receipt_reverted');
  });
};
