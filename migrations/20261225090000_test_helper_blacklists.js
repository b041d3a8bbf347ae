// Why: the blacklist test helper (POST /v1/test-helpers/blacklist, docs/testmode.md) had the development chain's tokens
// refuse any address a test key named, with no undo and no record of who asked (issue 44, finding 7). Each
// blacklisting is now recorded with the test scope that asked for it: only that scope may take it back (DELETE), and
// no other scope may blacklist the same address while it stands. The chain keeps its own state across restarts and
// `admin testmode reset` (which moves nothing on chain), so the record is kept across them too.

/** @param {import('knex').Knex} knex */
exports.up = async (knex) => {
  await knex.raw(`CREATE TABLE IF NOT EXISTS test_helper_blacklists (
    chain_id text NOT NULL,
    address text NOT NULL,
    account_id text NOT NULL REFERENCES accounts(id),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (chain_id, address)
  )`);
};

/** @param {import('knex').Knex} knex */
exports.down = async (knex) => {
  await knex.raw('DROP TABLE IF EXISTS test_helper_blacklists');
};
