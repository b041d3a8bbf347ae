// Why: a relayer transaction may carry the chain's own coin (issue 49, collector mode): the settlement or refund of
// a payment paid in ETH sends the coin itself, as the transaction's value, not a token's transfer(). The value it was
// signed with is stored beside its calldata, so that a replacement or a re-signing sends the same; 0 for everything
// else (every transaction stored before), and for a cancellation, which never carries value.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('ALTER TABLE chain_transactions ADD COLUMN value numeric(78,0) DEFAULT 0 NOT NULL');
  await knex.raw('ALTER TABLE chain_transactions ADD CONSTRAINT chain_transactions_value_check CHECK (value >= 0)');
};

// Down drops what was sent with value from the record of it: only before any such transaction was stored.
exports.down = async function down(knex) {
  await knex.raw('ALTER TABLE chain_transactions DROP COLUMN value');
};
