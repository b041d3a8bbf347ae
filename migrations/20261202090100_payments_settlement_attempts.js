// Why: a settlement transfer that reverted once (a token paused for a block, a blacklisted destination) was never
// tried again, and nothing said so (issue 28, finding 2). Attempts are counted per payment; the next one waits
// for `settlement_next_at`; after the bound the settlement is held with a reason until an operator retries it
// (`admin settlements retry`). A held settlement is never sent by the reconciler.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.alterTable('payments', (t) => {
    t.integer('settlement_attempts').notNullable().defaultTo(0); // failed attempts since the last operator retry
    t.timestamp('settlement_next_at', { useTz: true, precision: 3 }); // not tried again before this
    t.timestamp('settlement_held_at', { useTz: true, precision: 3 });
    t.text('settlement_hold_reason'); // e.g. reverted:token_refused, simulation:insufficient_funds, operator
  });
  // A reverted settlement moved nothing: it no longer stands in the way of the next attempt.
  await knex.raw(`DROP INDEX chain_transactions_payment_purpose_idx`);
  await knex.raw(
    `CREATE UNIQUE INDEX chain_transactions_payment_purpose_idx ON chain_transactions (payment_id, purpose) WHERE status NOT IN ('dropped', 'reverted')`,
  );
  // The operator's list of held settlements.
  await knex.raw(`CREATE INDEX payments_settlement_held_idx ON payments (settlement_held_at) WHERE settlement_held_at IS NOT NULL`);
};

exports.down = async function down(knex) {
  await knex.raw(`DROP INDEX payments_settlement_held_idx`);
  await knex.raw(`DROP INDEX chain_transactions_payment_purpose_idx`);
  await knex.raw(
    `CREATE UNIQUE INDEX chain_transactions_payment_purpose_idx ON chain_transactions (payment_id, purpose) WHERE status <> 'dropped'`,
  );
  await knex.schema.alterTable('payments', (t) => {
    t.dropColumn('settlement_attempts');
    t.dropColumn('settlement_next_at');
    t.dropColumn('settlement_held_at');
    t.dropColumn('settlement_hold_reason');
  });
};
