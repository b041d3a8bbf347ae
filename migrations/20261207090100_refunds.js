// Why: a refund only marked the payment refunded; the buyer got nothing back (issue 31). A refund is now a row of its
// own (`ref_…`): the token amount it sends back to the buyer, its status, and the relayer transaction that sends it
// from the collector that holds the account's funds (`refund`, a new chain transaction purpose). Several partial
// refunds of one payment are sent one after another (one live refund transaction per payment, as for every purpose).
//
// A payment's step has at most one standing transaction (a unique index); refunds, of which a payment may have
// several that succeed, have at most one in flight (pending or mined) instead. The index is replaced by two, the old
// one dropped once both exist. Not CONCURRENTLY: migrations run under a transaction-held advisory lock
// (src/db/migrate.ts), which a concurrent build would wait for forever; the build blocks the relayer's writes to
// chain_transactions for as long as it takes (the table holds a few rows per payment).
//
// The purpose check is replaced without a long lock: the new one is added NOT VALID, validated without blocking
// writes, and only then is the old one dropped (outside a transaction, as 20261202095100; each step can run again).

exports.config = { transaction: false };

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`CREATE TABLE IF NOT EXISTS refunds (
    id text PRIMARY KEY,
    payment_id text NOT NULL REFERENCES payments (id),
    account_id text NOT NULL REFERENCES accounts (id),
    amount_minor numeric(78,0) NOT NULL CHECK (amount_minor > 0),
    currency text NOT NULL,
    token_asset text NOT NULL REFERENCES assets (id),
    token_amount numeric(78,0) NOT NULL CHECK (token_amount >= 0),
    recipient text NOT NULL,
    status text NOT NULL CHECK (status IN ('requires_funding', 'pending', 'succeeded', 'failed')),
    failure_code text,
    chain_tx_id bigint REFERENCES chain_transactions (id),
    tx_hash text,
    created_at timestamp(3) with time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at timestamp(3) with time zone NOT NULL DEFAULT CURRENT_TIMESTAMP)`);
  await knex.raw(`CREATE INDEX IF NOT EXISTS refunds_payment_idx ON refunds (payment_id, created_at, id)`);
  await knex.raw(`CREATE INDEX IF NOT EXISTS refunds_open_idx ON refunds (updated_at) WHERE status IN ('requires_funding', 'pending')`);
  const has = async (name) =>
    (await knex.raw(`SELECT 1 FROM pg_constraint WHERE conrelid = 'chain_transactions'::regclass AND conname = ?`, [name])).rows.length > 0;
  if (!(await has('chain_transactions_purpose_refund_check')))
    await knex.raw(`ALTER TABLE chain_transactions ADD CONSTRAINT chain_transactions_purpose_refund_check
      CHECK (purpose IN ('collect', 'direct', 'settle', 'refund', 'sweep') AND (payment_id IS NULL) = (purpose = 'sweep')) NOT VALID`);
  await knex.raw('ALTER TABLE chain_transactions VALIDATE CONSTRAINT chain_transactions_purpose_refund_check');
  await knex.raw('ALTER TABLE chain_transactions DROP CONSTRAINT IF EXISTS chain_transactions_purpose_check');
  await knex.raw(`CREATE UNIQUE INDEX IF NOT EXISTS chain_transactions_payment_step_idx ON chain_transactions (payment_id, purpose)
    WHERE status NOT IN ('dropped', 'reverted') AND purpose <> 'refund'`);
  await knex.raw(`CREATE UNIQUE INDEX IF NOT EXISTS chain_transactions_payment_refund_idx ON chain_transactions (payment_id)
    WHERE purpose = 'refund' AND status IN ('pending', 'mined')`);
  await knex.raw('DROP INDEX IF EXISTS chain_transactions_payment_purpose_idx');
};

exports.down = async function down(knex) {
  await knex.raw(`DELETE FROM chain_transactions WHERE purpose = 'refund'`);
  await knex.raw(`CREATE UNIQUE INDEX chain_transactions_payment_purpose_idx ON chain_transactions (payment_id, purpose)
    WHERE status NOT IN ('dropped', 'reverted')`);
  await knex.raw('DROP INDEX chain_transactions_payment_step_idx');
  await knex.raw('DROP INDEX chain_transactions_payment_refund_idx');
  await knex.raw(`ALTER TABLE chain_transactions ADD CONSTRAINT chain_transactions_purpose_check
    CHECK (purpose IN ('collect', 'direct', 'settle', 'sweep') AND (payment_id IS NULL) = (purpose = 'sweep'))`);
  await knex.raw('ALTER TABLE chain_transactions DROP CONSTRAINT chain_transactions_purpose_refund_check');
  await knex.raw('DROP TABLE refunds');
};
