// Why: the cap on a buyer account's valid quotes of a payment was shared by every gateway caller (issue 28,
// finding 9): anyone who knew a payment id and the buyer's address could quote until the cap and so block that
// buyer's own wallet (429 until the quotes expired). Each option now records the credential (key id or app id) that
// asked for it, and the cap counts per buyer account and caller. Options quoted before this have none and count for
// no caller (quotes live minutes).

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.alterTable('payment_options', (t) => {
    t.text('quoted_by');
  });
};

exports.down = async function down(knex) {
  await knex.schema.alterTable('payment_options', (t) => {
    t.dropColumn('quoted_by');
  });
};
