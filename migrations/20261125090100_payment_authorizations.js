// Why: one submission per EIP-3009 authorization, whatever the number of jobs, processes or retries: the
// authorization's identity on chain is (chain, token, signer, nonce), so that is the unique key.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.createTable('payment_authorizations', (t) => {
    t.text('chain_id').notNullable();
    t.text('token').notNullable(); // EIP-55
    t.text('from_address').notNullable(); // EIP-55
    t.text('auth_nonce').notNullable(); // bytes32, lower-case hex
    t.text('payment_id').notNullable().unique().references('payments.id');
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.primary(['chain_id', 'token', 'from_address', 'auth_nonce']);
  });
};

exports.down = async function down() {
  throw new Error('Migrations are forward-only.');
};
