// Why: `admin testmode reset` (issue 32, docs/testmode.md) deletes an account's test data, its ledger journals
// among them. The statement triggers that refused every DELETE on the ledger now refuse UPDATE and TRUNCATE
// only; a row trigger refuses every DELETE but of a test scope's journal by the reset (ledger_delete_test_only).
const { createFunctions } = require('./functions');

const TABLES = ['ledger_journals', 'ledger_entries'];

/** @param {import('knex').Knex} knex */
exports.up = async (knex) => {
  await createFunctions(knex, ['ledger_delete_test_only']);
  for (const t of TABLES) {
    await knex.raw(`DROP TRIGGER ${t}_append_only ON ${t}`);
    await knex.raw(
      `CREATE TRIGGER ${t}_append_only BEFORE UPDATE OR TRUNCATE ON ${t} FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only()`,
    );
    await knex.raw(`CREATE TRIGGER ${t}_delete_test_only BEFORE DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION ledger_delete_test_only()`);
  }
};

/** @param {import('knex').Knex} knex */
exports.down = async (knex) => {
  for (const t of TABLES) {
    await knex.raw(`DROP TRIGGER ${t}_delete_test_only ON ${t}`);
    await knex.raw(`DROP TRIGGER ${t}_append_only ON ${t}`);
    await knex.raw(`CREATE TRIGGER ${t}_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON ${t}
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only()`);
  }
  await knex.raw('DROP FUNCTION ledger_delete_test_only()');
};
