// Why: a dashboard user's sign-in is a session (issue 48): a random token in an HttpOnly cookie, of which only the
// SHA-256 is stored, with its CSRF token and the mode (live or test) the dashboard acts in. It ends after a while
// unused or at an absolute expiry, when the user signs out, and at once when the user is removed (cascade).

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`CREATE TABLE dashboard_sessions (
    token_hash text PRIMARY KEY,
    user_id text NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
    csrf_token text NOT NULL,
    mode text NOT NULL CHECK (mode IN ('live', 'test')),
    created_at timestamp(3) with time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
    last_seen_at timestamp(3) with time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
    expires_at timestamp(3) with time zone NOT NULL)`);
  await knex.raw('CREATE INDEX dashboard_sessions_user_idx ON dashboard_sessions (user_id)');
  await knex.raw('CREATE INDEX dashboard_sessions_expires_at_idx ON dashboard_sessions (expires_at)');
};

exports.down = async function down(knex) {
  await knex.raw('DROP TABLE dashboard_sessions');
};
