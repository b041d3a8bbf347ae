// Why: in collector mode the service holds buyers' money between payment and settlement, and spends gas, without an
// account of whose money sits in each collector (issue 31). Every movement is now a journal of entries, double-entry
// and append-only: per owner (a partner account, the operator, or the world outside), bucket (available, pending,
// reserved, fees, gas, native, external), asset and holder (the address the tokens sit at). Entries of a journal sum
// to zero per asset (checked at commit); `ref` makes each movement happen once. Balances are sums of entries.
const { createFunctions } = require('./functions');

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`CREATE TABLE ledger_journals (
    id bigserial PRIMARY KEY,
    ref text NOT NULL UNIQUE,
    kind text NOT NULL,
    account_id text REFERENCES accounts (id),
    payment_id text REFERENCES payments (id),
    chain_tx_id bigint REFERENCES chain_transactions (id),
    chain_id text,
    tx_hash text,
    block_number bigint,
    created_at timestamp(3) with time zone NOT NULL DEFAULT CURRENT_TIMESTAMP)`);
  await knex.raw(`CREATE TABLE ledger_entries (
    id bigserial PRIMARY KEY,
    journal_id bigint NOT NULL REFERENCES ledger_journals (id),
    owner text NOT NULL,
    bucket text NOT NULL CHECK (bucket IN ('available', 'pending', 'reserved', 'fees', 'gas', 'native', 'external')),
    asset text NOT NULL,
    holder text,
    amount numeric(78,0) NOT NULL CHECK (amount <> 0))`);
  await knex.raw(`CREATE INDEX ledger_entries_journal_idx ON ledger_entries (journal_id)`);
  await knex.raw(`CREATE INDEX ledger_entries_owner_idx ON ledger_entries (owner, id)`);
  await knex.raw(`CREATE INDEX ledger_entries_holder_idx ON ledger_entries (asset, holder) WHERE holder IS NOT NULL`);
  await knex.raw(`CREATE INDEX ledger_journals_payment_idx ON ledger_journals (payment_id) WHERE payment_id IS NOT NULL`);
  await knex.raw(`CREATE INDEX ledger_journals_chain_tx_idx ON ledger_journals (chain_tx_id) WHERE chain_tx_id IS NOT NULL`);
  await createFunctions(knex, ['ledger_journal_balanced', 'ledger_append_only']);
  await knex.raw(`CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_journal_balanced()`);
  for (const t of ['ledger_journals', 'ledger_entries'])
    await knex.raw(`CREATE TRIGGER ${t}_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON ${t}
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only()`);
};

exports.down = async function down(knex) {
  await knex.raw(`DROP TABLE ledger_entries`);
  await knex.raw(`DROP TABLE ledger_journals`);
  await knex.raw(`DROP FUNCTION ledger_journal_balanced()`);
  await knex.raw(`DROP FUNCTION ledger_append_only()`);
};
