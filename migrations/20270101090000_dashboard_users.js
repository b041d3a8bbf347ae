// Why: the partner dashboard (issue 48) has people who sign in with an email and a password, not API keys. Each user
// belongs to one account with a role (owner, developer, viewer); the password is stored as an argon2id hash, and a
// TOTP secret (when second-factor sign-in is on) sealed with the data key like other sealed columns
// (src/db/sealedColumnsRepo.ts). An email signs in to one account: unique across the service, in lower case.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`CREATE TABLE dashboard_users (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts (id),
    email text NOT NULL CHECK (email = lower(email)),
    role text NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
    password_hash text NOT NULL,
    totp_secret bytea,
    created_at timestamp(3) with time zone NOT NULL DEFAULT CURRENT_TIMESTAMP)`);
  await knex.raw('CREATE UNIQUE INDEX dashboard_users_email_idx ON dashboard_users (email)');
  await knex.raw('CREATE INDEX dashboard_users_account_idx ON dashboard_users (account_id, created_at)');
};

exports.down = async function down(knex) {
  await knex.raw('DROP TABLE dashboard_users');
};
