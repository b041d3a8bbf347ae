// Why: a relayer key taken out of the configuration stranded the funds its collector held (issue 28, finding 7).
// A retired key's remaining balance is moved out by `admin relayer sweep`: a token transfer signed by that key
// under a nonce from relayer_nonces, stored before broadcast and watched by the monitor like every relayer
// transaction, but of no payment. So `sweep` is a purpose whose payment_id is null, and only a sweep's is.
//
// Outside a transaction, as 20261130090000 does, so that no step holds a lock on chain_transactions for long (the
// relayer writes it all the time): dropping NOT NULL changes only the catalogue, and the check is added NOT VALID
// (a brief lock) and then validated without blocking writes. Each step can run again.

exports.config = { transaction: false };

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('ALTER TABLE chain_transactions ALTER COLUMN payment_id DROP NOT NULL');
  const { rows } = await knex.raw(
    "SELECT 1 FROM pg_constraint WHERE conrelid = 'chain_transactions'::regclass AND conname = 'chain_transactions_purpose_check'",
  );
  if (rows.length === 0) {
    await knex.raw(`ALTER TABLE chain_transactions ADD CONSTRAINT chain_transactions_purpose_check
      CHECK (purpose IN ('collect', 'direct', 'settle', 'sweep') AND (payment_id IS NULL) = (purpose = 'sweep')) NOT VALID`);
  }
  await knex.raw('ALTER TABLE chain_transactions VALIDATE CONSTRAINT chain_transactions_purpose_check');
};

exports.down = async function down(knex) {
  await knex.raw('ALTER TABLE chain_transactions DROP CONSTRAINT IF EXISTS chain_transactions_purpose_check');
  await knex.raw('ALTER TABLE chain_transactions ALTER COLUMN payment_id SET NOT NULL');
};
