// Why: x402 in collector mode binds a payload to its account (issue 44). Each account scope (its live and its test
// one apart) gets a deposit address of its own, which x402 requirements name as `payTo`: the key that signs its
// onward authorization, sealed with the data key (src/domain/sealed.ts; `admin keys rotate-data` reseals it).

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`CREATE TABLE x402_deposit_keys (
    scope text PRIMARY KEY REFERENCES accounts (id),
    address text NOT NULL UNIQUE,
    private_key bytea NOT NULL,
    created_at timestamp(3) with time zone NOT NULL DEFAULT CURRENT_TIMESTAMP)`);
};

exports.down = async function down(knex) {
  await knex.raw('DROP TABLE x402_deposit_keys');
};
