// Why: people join the partner dashboard (issue 48) by an invitation, from the operator's CLI or an owner: a link
// with a one-time token (only its SHA-256 stored) that expires after 7 days. The TOTP secret the invitee enrols is
// made with the invitation and sealed with the data key, so the invitation page can show it before the account
// exists; accepting it moves the secret to the user.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`CREATE TABLE dashboard_invites (
    id text PRIMARY KEY,
    token_hash text NOT NULL UNIQUE,
    account_id text NOT NULL REFERENCES accounts (id),
    email text NOT NULL CHECK (email = lower(email)),
    role text NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
    totp_secret bytea NOT NULL,
    expires_at timestamp(3) with time zone NOT NULL,
    used_at timestamp(3) with time zone,
    created_at timestamp(3) with time zone NOT NULL DEFAULT CURRENT_TIMESTAMP)`);
  await knex.raw('CREATE INDEX dashboard_invites_account_idx ON dashboard_invites (account_id)');
};

exports.down = async function down(knex) {
  await knex.raw('DROP TABLE dashboard_invites');
};
