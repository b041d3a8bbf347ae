// Why: a scheduled settlement's transfer (`settle_batch`) is no one payment's: like a sweep it has no payment_id
// (its payments are in settlement_batch_payments). As 20261211090000: the new check is added NOT VALID under a new
// name, validated without blocking writes, then replaces the old one. Each step can run again.

exports.config = { transaction: false };

const PURPOSES = ['collect', 'direct', 'settle', 'refund', 'sweep', 'deploy', 'settle_batch'];

const exists = async (knex, name) =>
  (await knex.raw('SELECT 1 FROM pg_constraint WHERE conrelid = ?::regclass AND conname = ?', ['chain_transactions', name])).rows.length >
  0;

/** @param {import('knex').Knex} knex */
exports.up = async (knex) => {
  if (!(await exists(knex, 'chain_transactions_purpose_check_batch')))
    await knex.raw(`ALTER TABLE chain_transactions ADD CONSTRAINT chain_transactions_purpose_check_batch
      CHECK (purpose IN (${PURPOSES.map((p) => `'${p}'`).join(', ')}) AND (payment_id IS NULL) = (purpose IN ('sweep', 'settle_batch'))) NOT VALID`);
  await knex.raw('ALTER TABLE chain_transactions VALIDATE CONSTRAINT chain_transactions_purpose_check_batch');
  await knex.raw('ALTER TABLE chain_transactions DROP CONSTRAINT IF EXISTS chain_transactions_purpose_check');
  await knex.raw(
    'ALTER TABLE chain_transactions RENAME CONSTRAINT chain_transactions_purpose_check_batch TO chain_transactions_purpose_check',
  );
};

/** @param {import('knex').Knex} knex */
exports.down = async (knex) => {
  await knex.raw('ALTER TABLE chain_transactions DROP CONSTRAINT IF EXISTS chain_transactions_purpose_check');
  await knex.raw(`ALTER TABLE chain_transactions ADD CONSTRAINT chain_transactions_purpose_check
    CHECK (purpose IN (${PURPOSES.slice(0, -1)
      .map((p) => `'${p}'`)
      .join(', ')}) AND (payment_id IS NULL) = (purpose = 'sweep')) NOT VALID`);
};
