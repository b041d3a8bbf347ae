// Why: refunds paid from a reserve (issue 46): the share of a collected payment held back for refunds is a bucket of
// its own, `reserve`, beside the account's `available`, until its window ends and it settles on to the merchant.

const BUCKETS = ['available', 'pending', 'reserved', 'fees', 'gas', 'native', 'external', 'funding'];
const check = (list) => `CHECK (bucket IN (${list.map((b) => `'${b}'`).join(', ')}))`;

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_bucket_check`);
  await knex.raw(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_bucket_check ${check([...BUCKETS, 'reserve'])}`);
};

exports.down = async function down(knex) {
  await knex.raw(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_bucket_check`);
  await knex.raw(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_bucket_check ${check(BUCKETS)} NOT VALID`);
};
