// Why (issue 28, soak findings): a token paused for a block made buyers' collects revert, and the budget of reverted
// submissions charged those reverts to the buyer and the credential (1,007 confirms refused too_many_reverts in a
// 10-minute soak). Each reverted collect or direct transaction now records what the chain proves caused it: `token`
// (the token refused at that block: paused, or a party blacklisted), `outbid` (another transaction paid this payment
// with its authorization), or `payer` (anything else: the budget counts only these; null, before this, counts too).
// And a settlement was held and then settled without an operator, which nobody could explain afterwards: every failed
// settlement attempt is now a row with its reason (the soak prints them for each hold).

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.alterTable('chain_transactions', (t) => {
    t.text('revert_cause');
  });
  await knex.raw(
    `ALTER TABLE chain_transactions ADD CONSTRAINT chain_transactions_revert_cause_check CHECK (revert_cause IN ('payer', 'token', 'outbid'))`,
  );
  await knex.schema.createTable('settlement_failures', (t) => {
    t.bigIncrements('id');
    t.text('payment_id').notNullable().references('payments.id');
    t.integer('attempt').notNullable(); // the payment's settlement_attempts after this one
    t.text('reason').notNullable(); // reverted:<refusal> or simulation:<refusal>
    t.text('tx_hash'); // the reverted transaction, if one was sent
    t.boolean('held').notNullable(); // this attempt held the settlement
    t.timestamp('failed_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.index(['payment_id', 'id']);
  });
};

exports.down = async function down(knex) {
  await knex.schema.dropTable('settlement_failures');
  await knex.schema.alterTable('chain_transactions', (t) => {
    t.dropColumn('revert_cause');
  });
};
