// Why: refunds paid from a reserve (issue 46). Each collected payment with a reserve share has a row: where its share
// is held (account, asset, collector), until when (`release_at`, fixed at collection from the account's window), and
// the transfer that releases what is left of it to the merchant once the window ends (`release_tx_id`, set in the
// transaction that stores it signed, cleared when it reverts or is dropped; one standing release per payment). How
// much is left is the ledger's (the `reserve` entries of the journals naming the payment).

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`CREATE TABLE refund_reserves (
    payment_id text PRIMARY KEY REFERENCES payments (id),
    account_id text NOT NULL REFERENCES accounts (id),
    asset text NOT NULL REFERENCES assets (id),
    holder text NOT NULL,
    amount numeric(78, 0) NOT NULL CHECK (amount > 0),
    release_at timestamp(3) with time zone NOT NULL,
    release_tx_id bigint REFERENCES chain_transactions (id),
    released_at timestamp(3) with time zone,
    created_at timestamp(3) with time zone NOT NULL DEFAULT CURRENT_TIMESTAMP)`);
  await knex.raw(`CREATE INDEX refund_reserves_due ON refund_reserves (release_at) WHERE released_at IS NULL`);
  await knex.raw(`CREATE INDEX refund_reserves_open ON refund_reserves (account_id, asset, holder) WHERE released_at IS NULL`);
  await knex.raw(`CREATE INDEX refund_reserves_release_tx ON refund_reserves (release_tx_id) WHERE release_tx_id IS NOT NULL`);
};

exports.down = async function down(knex) {
  await knex.raw('DROP TABLE refund_reserves');
};
