// Why (issue 44, finding 3): an authorization mined after its deadline, although it left time when the relayer sent it,
// reverted as the payer's and used up the buyer's, the credential's and the account's budget of reverts, though only
// the relayer's fees or the chain's load made it late. Such a revert now records `congestion`, which no budget counts.
// As 20261213090200: the wider check is added NOT VALID under a new name, validated without blocking writes, then
// replaces the old one; each step can run again. Processes of the release before never write the new value and count
// only `payer` (or null) reverts, so they read it as not the payer's as well.

exports.config = { transaction: false };

const CAUSES = ['payer', 'token', 'outbid', 'congestion'];
const check = (causes) => `CHECK (revert_cause IN (${causes.map((c) => `'${c}'`).join(', ')}))`;

const exists = async (knex, name) =>
  (await knex.raw('SELECT 1 FROM pg_constraint WHERE conrelid = ?::regclass AND conname = ?', ['chain_transactions', name])).rows.length >
  0;

/** @param {import('knex').Knex} knex */
exports.up = async (knex) => {
  if (!(await exists(knex, 'chain_transactions_revert_cause_check_congestion')))
    await knex.raw(
      `ALTER TABLE chain_transactions ADD CONSTRAINT chain_transactions_revert_cause_check_congestion ${check(CAUSES)} NOT VALID`,
    );
  await knex.raw('ALTER TABLE chain_transactions VALIDATE CONSTRAINT chain_transactions_revert_cause_check_congestion');
  await knex.raw('ALTER TABLE chain_transactions DROP CONSTRAINT IF EXISTS chain_transactions_revert_cause_check');
  await knex.raw(
    'ALTER TABLE chain_transactions RENAME CONSTRAINT chain_transactions_revert_cause_check_congestion TO chain_transactions_revert_cause_check',
  );
};

/** @param {import('knex').Knex} knex */
exports.down = async (knex) => {
  await knex.raw(`UPDATE chain_transactions SET revert_cause = 'payer' WHERE revert_cause = 'congestion'`);
  await knex.raw('ALTER TABLE chain_transactions DROP CONSTRAINT IF EXISTS chain_transactions_revert_cause_check');
  await knex.raw(
    `ALTER TABLE chain_transactions ADD CONSTRAINT chain_transactions_revert_cause_check ${check(CAUSES.slice(0, -1))} NOT VALID`,
  );
};
