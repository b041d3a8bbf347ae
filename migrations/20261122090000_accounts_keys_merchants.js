// Why: the spine of the service. Partner accounts own API keys (stored only as hashes) and merchants;
// idempotency records make every POST safe to retry; crypto settlements hang off merchants.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.createTable('accounts', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    // The API version used when a request pins none; fixed when the account is created.
    t.text('default_version').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id');
    t.text('type').notNullable();
    t.binary('secret_hash').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true, precision: 3 });
    t.index(['account_id']);
  });
  await knex.raw(`ALTER TABLE api_keys ADD CONSTRAINT api_keys_type_check CHECK (type IN ('partner', 'wallet'))`);

  await knex.schema.createTable('merchants', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id');
    t.text('name').notNullable();
    t.text('email');
    t.text('icon_url');
    t.text('status').notNullable().defaultTo('active');
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
    t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
    t.timestamp('deleted_at', { useTz: true, precision: 3 });
  });
  await knex.raw(`ALTER TABLE merchants ADD CONSTRAINT merchants_status_check CHECK (status IN ('active', 'inactive', 'suspended'))`);
  // Keyset pagination of an account's live merchants, newest first, ties by id.
  await knex.raw(`CREATE INDEX merchants_account_list_idx ON merchants (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL`);

  await knex.schema.createTable('crypto_settlements', (t) => {
    t.text('id').primary();
    t.text('merchant_id').notNullable().references('merchants.id');
    t.text('asset').notNullable(); // canonical CAIP-19
    t.text('chain_id').notNullable(); // CAIP-2 of both asset and destination
    t.text('destination').notNullable(); // canonical CAIP-10
    t.specificType('seq', 'bigserial'); // creation order: entries created together share created_at
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.unique(['merchant_id', 'asset']);
  });

  await knex.schema.createTable('idempotency_keys', (t) => {
    // Scope: the account (partner API) or the caller (gateway); keys of different scopes never collide.
    t.text('scope').notNullable();
    t.text('key').notNullable();
    t.text('fingerprint').notNullable();
    t.text('state').notNullable(); // in_progress | done
    t.integer('response_status');
    t.text('response_body');
    t.timestamp('locked_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
    t.primary(['scope', 'key']);
    t.index(['expires_at']);
  });
};

exports.down = async function down() {
  throw new Error('Migrations are forward-only.');
};
