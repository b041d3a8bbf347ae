// Why: collector mode (the buyer pays this service's collector address, which then sends amount minus
// fee to the merchant) needs a fee per account and a record of what was settled where; direct mode (the
// buyer pays the merchant's destination; no settlement transfer) is chosen per account. Options remember
// the relayer key they name, since only that key may submit a ReceiveWithAuthorization to itself.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.alterTable('accounts', (t) => {
    t.text('settlement_mode').notNullable().defaultTo('collector');
    t.specificType('fee_base_minor', 'numeric(78,0)').notNullable().defaultTo(0); // minor units of the payment currency
    t.integer('fee_bps').notNullable().defaultTo(0); // percent in basis points (1.5 % = 150)
  });
  await knex.raw(`ALTER TABLE accounts ADD CONSTRAINT accounts_settlement_mode_check CHECK (settlement_mode IN ('collector','direct'))`);
  await knex.raw(`ALTER TABLE accounts ADD CONSTRAINT accounts_fee_check CHECK (fee_base_minor >= 0 AND fee_bps BETWEEN 0 AND 10000)`);
  await knex.schema.alterTable('payment_options', (t) => {
    t.text('relayer'); // EIP-55 address of the relayer key that submits this option's authorization
  });
  await knex.schema.alterTable('payments', (t) => {
    t.specificType('fee_amount', 'numeric(78,0)'); // token units kept by the service
    t.specificType('settlement_amount', 'numeric(78,0)'); // token units sent to the merchant
    t.text('settlement_destination'); // CAIP-10 the settlement went to (the one current at settlement time)
  });
  // The settlement reconciler: succeeded collector-mode payments not yet settled.
  await knex.raw(`CREATE INDEX payments_unsettled_idx ON payments (updated_at) WHERE status = 'succeeded' AND settled_at IS NULL`);
};

exports.down = async function down() {
  throw new Error('Migrations are forward-only.');
};
