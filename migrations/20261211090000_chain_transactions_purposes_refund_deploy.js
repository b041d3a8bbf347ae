// Why: two migrations of one release each widened the purpose check for their own new purpose: `refund`
// (20261207090100, as `chain_transactions_purpose_refund_check`) and `deploy` (20261210090000, as
// `chain_transactions_purpose_check`). Both checks stood side by side, and each refused the other's purpose. One
// check now allows every purpose; both older ones go.
//
// Outside a transaction, like 20261210090000: the new check is added NOT VALID under a new name (a brief lock),
// validated without blocking writes, and only then replaces the old ones. Each step can run again.

exports.config = { transaction: false };

const PURPOSES = ['collect', 'direct', 'settle', 'refund', 'sweep', 'deploy'];

const exists = async (knex, name) =>
  (await knex.raw('SELECT 1 FROM pg_constraint WHERE conrelid = ?::regclass AND conname = ?', ['chain_transactions', name])).rows.length >
  0;

/** @param {import('knex').Knex} knex */
exports.up = async (knex) => {
  if (!(await exists(knex, 'chain_transactions_purpose_check_all')))
    await knex.raw(`ALTER TABLE chain_transactions ADD CONSTRAINT chain_transactions_purpose_check_all
      CHECK (purpose IN (${PURPOSES.map((p) => `'${p}'`).join(', ')}) AND (payment_id IS NULL) = (purpose = 'sweep')) NOT VALID`);
  await knex.raw('ALTER TABLE chain_transactions VALIDATE CONSTRAINT chain_transactions_purpose_check_all');
  await knex.raw('ALTER TABLE chain_transactions DROP CONSTRAINT IF EXISTS chain_transactions_purpose_check');
  await knex.raw('ALTER TABLE chain_transactions DROP CONSTRAINT IF EXISTS chain_transactions_purpose_refund_check');
  await knex.raw(
    'ALTER TABLE chain_transactions RENAME CONSTRAINT chain_transactions_purpose_check_all TO chain_transactions_purpose_check',
  );
};

/** @param {import('knex').Knex} knex */
exports.down = async (knex) => {
  await knex.raw(`ALTER TABLE chain_transactions ADD CONSTRAINT chain_transactions_purpose_refund_check
    CHECK (purpose IN ('collect', 'direct', 'settle', 'refund', 'sweep') AND (payment_id IS NULL) = (purpose = 'sweep')) NOT VALID`);
};
