// Why: a refund the account's balance does not cover waited without a way to fund it (issue 31). Its funding is a
// payment like any other (the gateway flow, any wallet), of the missing amount, whose tokens are credited to the
// account and never settled; this table says which payment funds which refund.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`CREATE TABLE refund_fundings (
    refund_id text PRIMARY KEY REFERENCES refunds (id),
    payment_id text NOT NULL UNIQUE REFERENCES payments (id),
    created_at timestamp(3) with time zone NOT NULL DEFAULT CURRENT_TIMESTAMP)`);
};

exports.down = async function down(knex) {
  await knex.raw('DROP TABLE refund_fundings');
};
