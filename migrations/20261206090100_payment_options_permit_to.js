// Why: a Permit2 permit (issue 29) names its spender, not where the tokens go: the spender (the relayer key that
// submits) chooses the recipient when it executes it. The recipient is decided with the option (the relayer in
// collector mode, the merchant's destination in direct mode) and kept beside the typed data the wallet signs, so
// the submission sends the tokens exactly where the option said. Null for EIP-3009 options (their `to` is signed).

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.alterTable('payment_options', (t) => {
    t.text('permit_to');
  });
};

exports.down = async function down(knex) {
  await knex.schema.alterTable('payment_options', (t) => {
    t.dropColumn('permit_to');
  });
};
