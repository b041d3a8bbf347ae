// Why: a scheduled settlement sends the shares of several payments in one transfer (issue 31). A batch is stored
// with its transaction, under the collector's nonce lock: at most one per merchant, asset, collector and slot (a
// unique key), and a payment in at most one batch that was not released (a revert or a dropped transaction
// releases it, for the next slot).

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`CREATE TABLE settlement_batches (
    chain_tx_id bigint PRIMARY KEY REFERENCES chain_transactions (id),
    account_id text NOT NULL REFERENCES accounts (id),
    merchant_id text NOT NULL REFERENCES merchants (id),
    asset text NOT NULL REFERENCES assets (id),
    collector text NOT NULL,
    destination text NOT NULL,
    slot timestamp(3) with time zone NOT NULL,
    amount numeric(78, 0) NOT NULL CHECK (amount > 0),
    released_at timestamp(3) with time zone,
    created_at timestamp(3) with time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
    UNIQUE (merchant_id, asset, collector, slot))`);
  await knex.raw(`CREATE TABLE settlement_batch_payments (
    chain_tx_id bigint NOT NULL REFERENCES settlement_batches (chain_tx_id),
    payment_id text NOT NULL REFERENCES payments (id),
    amount numeric(78, 0) NOT NULL CHECK (amount > 0),
    released boolean NOT NULL DEFAULT false,
    PRIMARY KEY (chain_tx_id, payment_id))`);
  await knex.raw(`CREATE UNIQUE INDEX settlement_batch_payments_one_standing ON settlement_batch_payments (payment_id)
    WHERE NOT released`);
};

exports.down = async function down(knex) {
  await knex.raw('DROP TABLE settlement_batch_payments');
  await knex.raw('DROP TABLE settlement_batches');
};
