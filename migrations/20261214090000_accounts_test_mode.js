// Why: test mode (issue 32, docs/testmode.md). An account's test data lives under its own scope, a second
// `accounts` row (`acct_test_<same 22 characters>`, livemode false, live_account_id naming the account):
// every table of partner-visible objects already scopes by account_id, so test and live objects cannot mix in
// any query, and the indexes on account_id keep their plans. Keys and apps of that row are the test ones.
// The row keeps the account's settings (accountsRepo.ts writes both rows); it is made with the first test key.

/** @param {import('knex').Knex} knex */
exports.up = async (knex) => {
  await knex.raw(`ALTER TABLE accounts ADD COLUMN livemode boolean NOT NULL DEFAULT true,
    ADD COLUMN live_account_id text REFERENCES accounts(id),
    ADD CONSTRAINT accounts_test_scope_check CHECK (livemode = (live_account_id IS NULL)),
    ADD CONSTRAINT accounts_live_account_id_unique UNIQUE (live_account_id)`);
};

/** @param {import('knex').Knex} knex */
exports.down = async (knex) => {
  await knex.raw(`ALTER TABLE accounts DROP COLUMN live_account_id, DROP COLUMN livemode`);
};
