// Why: the x402 facilitator (issue 33) turns each settled x402 payload into a payment of a merchant. A payload is
// one EIP-3009 authorization: settling it twice, also by two requests at once, must answer the first settlement and
// never create a second payment, so the authorization (chain, token, payer, nonce) is unique here. The
// `payment-identifier` extension names a settlement too: unique per account where it is given.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.createTable('x402_settlements', (t) => {
    t.text('payment_id').primary().references('id').inTable('payments');
    t.text('account_id').notNullable().references('id').inTable('accounts');
    t.text('chain_id').notNullable();
    t.text('token').notNullable();
    t.text('payer').notNullable();
    t.text('nonce').notNullable();
    t.text('payment_identifier');
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.unique(['chain_id', 'token', 'payer', 'nonce']);
    t.unique(['account_id', 'payment_identifier']);
  });
};

exports.down = async function down(knex) {
  await knex.schema.dropTable('x402_settlements');
};
