// Why: partners manage their own API keys (issue 48, preview `/v1/api-keys`): a key gets a name, may be read-only
// or expire, and says which key made it. Each change to an account's keys, by a partner or the operator's CLI, is
// written to the account's audit log (`audit_events`, read with `GET /v1/audit-events`).

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`ALTER TABLE api_keys
    ADD COLUMN name text,
    ADD COLUMN read_only boolean NOT NULL DEFAULT false,
    ADD COLUMN expires_at timestamp(3) with time zone,
    ADD COLUMN created_by text`);
  await knex.raw(`CREATE TABLE audit_events (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts (id),
    actor_type text NOT NULL CHECK (actor_type IN ('api_key', 'operator')),
    actor_id text,
    action text NOT NULL,
    target text NOT NULL,
    created_at timestamp(3) with time zone NOT NULL DEFAULT CURRENT_TIMESTAMP)`);
  await knex.raw('CREATE INDEX audit_events_account_idx ON audit_events (account_id, created_at DESC, id DESC)');
};

exports.down = async function down(knex) {
  await knex.raw('DROP TABLE audit_events');
  await knex.raw('ALTER TABLE api_keys DROP COLUMN name, DROP COLUMN read_only, DROP COLUMN expires_at, DROP COLUMN created_by');
};
