// Why: a partner sees when each of its keys was last used (issue 48, preview `lastUsedAt`), to find the keys
// nobody uses before revoking them. Written at most once a minute per key (src/http/keyUsage.ts), never a write
// per request.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('ALTER TABLE api_keys ADD COLUMN last_used_at timestamp(3) with time zone');
};

exports.down = async function down(knex) {
  await knex.raw('ALTER TABLE api_keys DROP COLUMN last_used_at');
};
