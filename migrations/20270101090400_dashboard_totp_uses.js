// Why: a TOTP code is good for its 30-second step and the steps beside it (clock drift), so one seen by someone
// else (over a shoulder, a phishing page) would sign in again within that time. RFC 6238 (section 5.2) asks that a
// code accepted once is refused after: each user's accepted steps are kept here until they fall out of the window.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`CREATE TABLE dashboard_totp_uses (
    user_id text NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
    step bigint NOT NULL,
    PRIMARY KEY (user_id, step))`);
};

exports.down = async function down(knex) {
  await knex.raw('DROP TABLE dashboard_totp_uses');
};
