// Why: the merchant side of payments. An asset registry (what the service can take, seeded with the
// major stablecoins and editable by operators without code changes), payments with a per-payment version,
// and an outbox of payment events written in the same transaction as each state change.

const TW = 'https://raw.githubusercontent.com/trustwallet/assets/master/blockchains';
const NETWORKS = {
  'eip155:1': { name: 'Ethereum', slug: 'ethereum' },
  'eip155:8453': { name: 'Base', slug: 'base' },
  'eip155:10': { name: 'OP Mainnet', slug: 'optimism' },
  'eip155:42161': { name: 'Arbitrum One', slug: 'arbitrum' },
  'eip155:137': { name: 'Polygon', slug: 'polygon' },
};
// [chain, address, symbol, name, peg, eip712 name, eip712 version] — all six decimals. The EIP-712 domain
// is the token's own (EIP-3009 transferWithAuthorization); USDT has no EIP-3009 and so no domain.
const ASSETS = [
  ['eip155:1', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 'USDC', 'USD Coin', 'USD', 'USD Coin', '2'],
  ['eip155:8453', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 'USDC', 'USD Coin', 'USD', 'USD Coin', '2'],
  ['eip155:10', '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85', 'USDC', 'USD Coin', 'USD', 'USD Coin', '2'],
  ['eip155:42161', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', 'USDC', 'USD Coin', 'USD', 'USD Coin', '2'],
  ['eip155:137', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', 'USDC', 'USD Coin', 'USD', 'USD Coin', '2'],
  ['eip155:1', '0xdAC17F958D2ee523a2206206994597C13D831ec7', 'USDT', 'Tether USD', 'USD', null, null],
  ['eip155:137', '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', 'USDT', '(PoS) Tether USD', 'USD', null, null],
  ['eip155:1', '0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c', 'EURC', 'Euro Coin', 'EUR', 'EURC', '2'],
  ['eip155:8453', '0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42', 'EURC', 'Euro Coin', 'EUR', 'EURC', '2'],
];

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');

  await knex.schema.createTable('assets', (t) => {
    t.text('id').primary(); // canonical CAIP-19, e.g. eip155:8453/erc20:0x8335…
    t.text('chain_id').notNullable();
    t.text('symbol').notNullable();
    t.text('name').notNullable();
    t.integer('decimals').notNullable();
    t.text('network_name').notNullable();
    t.text('icon_url');
    t.text('network_icon_url');
    t.text('peg_currency'); // ISO 4217 code the token is pegged 1:1 to; null = needs a rate source
    t.text('eip712_name');
    t.text('eip712_version');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
  });
  await knex('assets').insert(
    ASSETS.map(([chain, address, symbol, name, peg, n712, v712]) => ({
      id: `${chain}/erc20:${address}`,
      chain_id: chain,
      symbol,
      name,
      decimals: 6,
      network_name: NETWORKS[chain].name,
      icon_url: `${TW}/${NETWORKS[chain].slug}/assets/${address}/logo.png`,
      network_icon_url: `${TW}/${NETWORKS[chain].slug}/info/logo.png`,
      peg_currency: peg,
      eip712_name: n712,
      eip712_version: v712,
    })),
  );
  await knex.schema.alterTable('crypto_settlements', (t) => {
    t.foreign('asset').references('assets.id');
  });

  await knex.schema.createTable('payments', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id');
    t.text('merchant_id').notNullable().references('merchants.id');
    t.text('reference_id').notNullable();
    t.text('currency').notNullable();
    t.specificType('amount_minor', 'numeric(78,0)').notNullable();
    t.text('status').notNullable();
    t.text('failure_code');
    t.text('cancelled_reason');
    t.timestamp('cancelled_at', { useTz: true, precision: 3 });
    t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
    t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
    t.timestamp('refunded_at', { useTz: true, precision: 3 });
    t.integer('version').notNullable().defaultTo(1);
    t.text('checkout_success_url');
    t.text('checkout_error_url');
    // What the buyer paid with; set by the gateway.
    t.text('token_asset');
    t.specificType('token_amount', 'numeric(78,0)');
    t.text('chain_id');
    t.text('buyer_account');
    t.text('tx_hash');
    t.text('tx_nonce');
    t.text('settlement_tx_hash');
    t.timestamp('settled_at', { useTz: true, precision: 3 });
  });
  await knex.raw(
    `ALTER TABLE payments ADD CONSTRAINT payments_status_check CHECK (status IN ('requires_action','processing','succeeded','failed','expired','cancelled'))`,
  );
  await knex.raw(`ALTER TABLE payments ADD CONSTRAINT payments_amount_positive CHECK (amount_minor > 0)`);
  // Lists: per account and per merchant, newest first (keyset), plus the other sort keys.
  await knex.raw('CREATE INDEX payments_account_created_idx ON payments (account_id, created_at DESC, id DESC)');
  await knex.raw('CREATE INDEX payments_merchant_created_idx ON payments (merchant_id, created_at DESC, id DESC)');
  await knex.raw('CREATE INDEX payments_account_updated_idx ON payments (account_id, updated_at DESC, id DESC)');
  await knex.raw('CREATE INDEX payments_merchant_updated_idx ON payments (merchant_id, updated_at DESC, id DESC)');
  // referenceId substring search stays indexed with millions of rows.
  await knex.raw('CREATE INDEX payments_reference_trgm_idx ON payments USING gin (reference_id gin_trgm_ops)');
  // The expiry sweeper only looks at open payments.
  await knex.raw(`CREATE INDEX payments_open_expiry_idx ON payments (expires_at) WHERE status = 'requires_action'`);

  await knex.schema.createTable('payment_events', (t) => {
    t.text('id').primary(); // evt_…
    t.text('payment_id').notNullable().references('payments.id');
    t.text('account_id').notNullable();
    t.text('type').notNullable();
    t.integer('version').notNullable(); // the payment's version after this change
    t.jsonb('data').notNullable(); // snapshot of the payment
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.unique(['payment_id', 'version']);
  });
  await knex.raw('CREATE INDEX payment_events_account_idx ON payment_events (account_id, created_at DESC)');
};

exports.down = async function down() {
  throw new Error('Migrations are forward-only.');
};
