// Why: the stall test helper (POST /v1/test-helpers/payments/{id}/stall, docs/testmode.md) makes the next transaction
// the relayer signs for a payment offer less than the chain's base fee. Any process may sign it, so the request is
// stored: one row per payment, taken in the transaction that stores the signed transaction.

/** @param {import('knex').Knex} knex */
exports.up = async (knex) => {
  await knex.raw(`CREATE TABLE IF NOT EXISTS test_helper_stalls (
    payment_id text PRIMARY KEY REFERENCES payments(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now()
  )`);
};

/** @param {import('knex').Knex} knex */
exports.down = async (knex) => {
  await knex.raw('DROP TABLE IF EXISTS test_helper_stalls');
};
