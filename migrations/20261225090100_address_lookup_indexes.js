// Why: before the blacklist test helper acts on an address, it asks whether another account uses it as a buyer or a
// settlement destination (issue 44, finding 7): any test key may ask, in production too, so the question must not
// read every payment and quote. The expressions are the address part of the CAIP-10 columns in lower case, as the
// helper's lookup (src/db/testHelpersRepo.ts) and the revert budget's buyer match (src/db/revertsRepo.ts) write them.
//
// Outside a transaction and built plainly, as in 20261202091100 (a concurrent build would wait for the starting
// processes, which wait for the migration lock this process holds). IF NOT EXISTS: a process that dies halfway leaves
// a state the next start completes.

exports.config = { transaction: false };

const INDEXES = [
  ['payments_buyer_address_idx', 'payments', 'buyer_account'],
  ['payments_settlement_destination_address_idx', 'payments', 'settlement_destination'],
  ['payment_options_account_address_idx', 'payment_options', 'account'],
];

/** @param {import('knex').Knex} knex */
exports.up = async (knex) => {
  for (const [name, table, column] of INDEXES)
    await knex.raw(`CREATE INDEX IF NOT EXISTS ${name} ON ${table} (lower(split_part(${column}, ':', 3))) WHERE ${column} IS NOT NULL`);
};

/** @param {import('knex').Knex} knex */
exports.down = async (knex) => {
  for (const [name] of INDEXES) await knex.raw(`DROP INDEX IF EXISTS ${name}`);
};
