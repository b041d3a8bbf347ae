// Why: a refund's funding payment was credited to the account's available balance, where the account's settlements
// still due could take it, and the refund stayed short (issue 31, the soak's seed 2863989428). Its tokens are now
// earmarked for that refund: the journals that credit, reserve or release them name the refund they belong to.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`ALTER TABLE ledger_journals ADD COLUMN refund_id text REFERENCES refunds (id)`);
  await knex.raw(`CREATE INDEX ledger_journals_refund_idx ON ledger_journals (refund_id) WHERE refund_id IS NOT NULL`);
};

exports.down = async function down(knex) {
  await knex.raw(`ALTER TABLE ledger_journals DROP COLUMN refund_id`);
};
