// Why: settlement on a schedule (issue 31). An account's payments settle each on its own at once (0, the default,
// as before), or every N minutes in one transfer per merchant, asset and collector (docs/ledger.md).

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`ALTER TABLE accounts ADD COLUMN IF NOT EXISTS settlement_every_minutes integer NOT NULL DEFAULT 0
    CONSTRAINT accounts_settlement_every_minutes_check CHECK (settlement_every_minutes BETWEEN 0 AND 44640)`);
};

exports.down = async function down(knex) {
  await knex.raw('ALTER TABLE accounts DROP COLUMN settlement_every_minutes');
};
