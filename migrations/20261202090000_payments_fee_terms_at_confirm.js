// Why: the fee a payment pays was read from the account when its settlement was sent, so a fee changed between
// a payment and its settlement changed what the merchant got for it (issue 28, finding 6). The terms are now
// fixed on the payment when it is confirmed; payments confirmed before this migration have none and keep the
// account's terms at settlement, as before.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.alterTable('payments', (t) => {
    t.specificType('fee_base_minor', 'numeric(78,0)'); // minor units of the payment currency, from the account at confirm
    t.integer('fee_bps'); // basis points, from the account at confirm
  });
};

exports.down = async function down(knex) {
  await knex.schema.alterTable('payments', (t) => {
    t.dropColumn('fee_base_minor');
    t.dropColumn('fee_bps');
  });
};
