// Why: the wallet side. Apps identify wallets that have no API key (App-Id + Client-Id, the client id
// stored only as a hash); each account may lower or raise the amount above which buyer data is
// collected; options are stored exactly as offered so that confirm checks the signature against what
// the wallet was shown; chain submissions record each authorization once (one per payment).

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.createTable('apps', (t) => {
    t.text('id').primary(); // app_…
    t.text('account_id').notNullable().references('accounts.id');
    t.text('name').notNullable();
    t.binary('client_hash').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true, precision: 3 });
  });

  await knex.schema.alterTable('accounts', (t) => {
    // Payments at or above this amount (minor units of the payment currency) collect buyer data; null = the default.
    t.specificType('collect_data_threshold_minor', 'numeric(78,0)');
  });

  await knex.schema.createTable('payment_options', (t) => {
    t.text('id').primary(); // opt_…
    t.text('payment_id').notNullable().references('payments.id');
    t.text('account').notNullable(); // buyer CAIP-10, canonical
    t.text('asset').notNullable().references('assets.id');
    t.text('chain_id').notNullable();
    t.specificType('token_amount', 'numeric(78,0)').notNullable();
    t.text('typed_data').notNullable(); // the exact JSON string handed to the wallet
    t.text('nonce').notNullable();
    t.boolean('collect_data').notNullable();
    t.binary('collected_data'); // AES-256-GCM sealed, set by fetch when the buyer sends it early
    t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.index(['payment_id']);
  });

  await knex.schema.alterTable('payments', (t) => {
    t.text('option_id');
    t.text('signature');
    t.jsonb('caller_info'); // who confirmed: key or app id, Sdk-Name/Version/Platform
    t.binary('collected_data'); // AES-256-GCM sealed; never logged
  });

  await knex.schema.createTable('chain_submissions', (t) => {
    t.text('payment_id').primary().references('payments.id'); // one submission per payment, ever
    t.text('chain_id').notNullable();
    t.jsonb('authorization').notNullable();
    t.text('tx_hash').notNullable();
    t.timestamp('submitted_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
  });
};

exports.down = async function down() {
  throw new Error('Migrations are forward-only.');
};
