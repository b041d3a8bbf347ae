// Why: a buyer (or anyone holding open payment links) whose authorizations pass confirm and revert on chain makes the
// relayer pay gas for nothing (issue 28, finding 4). Every confirm now counts the reverted collect and direct
// transactions of the last 24 hours of the payment's account and of the buyer's address, and refuses beyond a budget.
// Reverts are rare: a partial index on when they became final keeps that count a read of the last day's reverts,
// whatever the size of the table.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(
    `CREATE INDEX chain_transactions_reverted_idx ON chain_transactions (finished_at) WHERE status = 'reverted' AND purpose IN ('collect', 'direct')`,
  );
};

exports.down = async function down(knex) {
  await knex.raw(`DROP INDEX chain_transactions_reverted_idx`);
};
