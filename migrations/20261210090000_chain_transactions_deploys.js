// Why: a buyer's smart-contract wallet may sign before it exists (ERC-6492: the signature carries the factory call
// that deploys it). The token and Permit2 check the signature with the wallet's code, so the relayer deploys the
// wallet first: a `deploy` transaction of the payment, signed under the next nonce and stored in the same commit as
// the transfer after it, watched by the monitor like the others. Its outcome moves no payment; the transfer's does.
//
// Outside a transaction, like 20261202095100: the new check is added NOT VALID under a new name (a brief lock),
// validated without blocking writes, and only then replaces the old one. Each step can run again.

exports.config = { transaction: false };

const check = (name, purposes) =>
  `ALTER TABLE chain_transactions ADD CONSTRAINT ${name}
     CHECK (purpose IN (${purposes.map((p) => `'${p}'`).join(', ')}) AND (payment_id IS NULL) = (purpose = 'sweep')) NOT VALID`;

const exists = async (knex, name) =>
  (await knex.raw('SELECT 1 FROM pg_constraint WHERE conrelid = ?::regclass AND conname = ?', ['chain_transactions', name])).rows.length >
  0;

async function swap(knex, purposes) {
  if (!(await exists(knex, 'chain_transactions_purpose_check_next')))
    await knex.raw(check('chain_transactions_purpose_check_next', purposes));
  await knex.raw('ALTER TABLE chain_transactions VALIDATE CONSTRAINT chain_transactions_purpose_check_next');
  await knex.raw('ALTER TABLE chain_transactions DROP CONSTRAINT IF EXISTS chain_transactions_purpose_check');
  await knex.raw(
    'ALTER TABLE chain_transactions RENAME CONSTRAINT chain_transactions_purpose_check_next TO chain_transactions_purpose_check',
  );
}

/** @param {import('knex').Knex} knex */
exports.up = (knex) => swap(knex, ['collect', 'direct', 'settle', 'sweep', 'deploy']);

/** @param {import('knex').Knex} knex */
exports.down = (knex) => swap(knex, ['collect', 'direct', 'settle', 'sweep']);
