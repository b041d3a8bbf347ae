// Why: the relayer moves real tokens. Every transaction it signs is stored (raw bytes and hash) before it
// is broadcast, under a nonce allocated here per (chain, sender) with a row lock, so that any number of
// processes share a key without nonce collisions, and a crash after signing re-broadcasts the same bytes
// instead of signing a second transaction. `previous_hashes` keeps the hashes of fee-bumped replacements
// (any of them may be the one mined). One process at a time watches a chain (`chain_monitors` lease).

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.createTable('relayer_nonces', (t) => {
    t.text('chain_id').notNullable();
    t.text('sender').notNullable(); // EIP-55 address of the relayer key
    t.bigInteger('next_nonce').notNullable();
    t.primary(['chain_id', 'sender']);
  });

  await knex.schema.createTable('chain_transactions', (t) => {
    t.bigIncrements('id');
    t.text('chain_id').notNullable();
    t.text('sender').notNullable();
    t.bigInteger('nonce').notNullable();
    t.text('purpose').notNullable(); // collect (receiveWithAuthorization), direct (transferWithAuthorization), settle (transfer)
    t.text('payment_id').notNullable().references('payments.id');
    t.text('to_address').notNullable();
    t.text('calldata').notNullable();
    t.bigInteger('gas_limit').notNullable();
    t.specificType('max_fee_per_gas', 'numeric(78,0)').notNullable();
    t.specificType('max_priority_fee_per_gas', 'numeric(78,0)').notNullable();
    t.text('raw_tx').notNullable();
    t.text('tx_hash').notNullable();
    t.specificType('previous_hashes', 'text[]').notNullable().defaultTo('{}');
    t.text('status').notNullable().defaultTo('pending'); // pending, mined, confirmed, reverted, dropped
    t.bigInteger('block_number');
    t.text('block_hash');
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('signed_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('broadcast_at', { useTz: true, precision: 3 }); // last successful broadcast; null: not yet sent
    t.timestamp('finished_at', { useTz: true, precision: 3 });
    t.unique(['chain_id', 'sender', 'nonce']);
  });
  await knex.raw(
    `ALTER TABLE chain_transactions ADD CONSTRAINT chain_transactions_status_check CHECK (status IN ('pending','mined','confirmed','reverted','dropped'))`,
  );
  // The monitor's work list: transactions not yet final, per chain, in nonce order.
  await knex.raw(
    `CREATE INDEX chain_transactions_open_idx ON chain_transactions (chain_id, sender, nonce) WHERE status IN ('pending','mined')`,
  );
  // At most one live transaction per payment and purpose: a duplicate job cannot send twice.
  await knex.raw(
    `CREATE UNIQUE INDEX chain_transactions_payment_purpose_idx ON chain_transactions (payment_id, purpose) WHERE status <> 'dropped'`,
  );

  await knex.schema.createTable('chain_monitors', (t) => {
    t.text('chain_id').primary();
    t.text('holder').notNullable();
    t.timestamp('lease_until', { useTz: true, precision: 3 }).notNullable();
  });
};

exports.down = async function down() {
  throw new Error('Migrations are forward-only.');
};
