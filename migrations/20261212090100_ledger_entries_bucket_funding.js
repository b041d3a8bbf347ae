// Why: a refund's funding is held for that refund alone (issue 31): a bucket of its own, `funding`, that only the
// refund named by the journal may spend, beside the account's `available`.

const BUCKETS = ['available', 'pending', 'reserved', 'fees', 'gas', 'native', 'external'];
const check = (list) => `CHECK (bucket IN (${list.map((b) => `'${b}'`).join(', ')}))`;

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_bucket_check`);
  await knex.raw(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_bucket_check ${check([...BUCKETS, 'funding'])}`);
};

exports.down = async function down(knex) {
  await knex.raw(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_bucket_check`);
  await knex.raw(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_bucket_check ${check(BUCKETS)}`);
};
