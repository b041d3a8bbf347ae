// Why: an x402 payment paid to an account's deposit address (issue 44) is sent with the deposit address's own
// authorization to the collector beside the buyer's: its signature, made when the payment is settled, is stored with
// the option so that the relayer (and a restarted one) sends the same two calls (src/domain/x402Deposit.ts).

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('ALTER TABLE payment_options ADD COLUMN deposit_signature text');
};

exports.down = async function down(knex) {
  await knex.raw('ALTER TABLE payment_options DROP COLUMN deposit_signature');
};
