// Why: refunds paid from a reserve (issue 46). An account may override the operator's refund reserve
// (REFUND_RESERVE_BPS, REFUND_RESERVE_WINDOW_MINUTES): the share of each collected payment held at the collector, and
// for how long, before it settles on to the merchant. NULL (the default): the operator's setting applies.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`ALTER TABLE accounts ADD COLUMN IF NOT EXISTS refund_reserve_bps integer
    CONSTRAINT accounts_refund_reserve_bps_check CHECK (refund_reserve_bps BETWEEN 0 AND 10000)`);
  await knex.raw(`ALTER TABLE accounts ADD COLUMN IF NOT EXISTS refund_reserve_window_minutes integer
    CONSTRAINT accounts_refund_reserve_window_minutes_check CHECK (refund_reserve_window_minutes BETWEEN 0 AND 44640)`);
};

exports.down = async function down(knex) {
  await knex.raw('ALTER TABLE accounts DROP COLUMN refund_reserve_window_minutes');
  await knex.raw('ALTER TABLE accounts DROP COLUMN refund_reserve_bps');
};
