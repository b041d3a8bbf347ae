// Why: a stuck transaction was replaced with 12.5 % higher fees every time it counted as stuck, without end, also
// after its authorization had expired and it could only revert (issue 28, finding 3). Replacements are now counted
// per transaction (`fee_bumps`, bounded by CHAIN_MAX_FEE_BUMPS); `fee_limited_at` says since when the network has
// asked more than the transaction may offer (the bound or the fee ceiling reached; logged once, counted by the
// paygate_relayer_fee_limited_transactions gauge), cleared when the network asks less or it is replaced; and
// `cancelled_at` marks a transaction whose nonce was taken back, after its authorization's validBefore, by a
// 0-value transfer to the sender itself: the row then describes that transfer (to_address, calldata, gas_limit),
// its earlier hashes stay in previous_hashes.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.alterTable('chain_transactions', (t) => {
    t.integer('fee_bumps').notNullable().defaultTo(0);
    t.timestamp('fee_limited_at', { useTz: true, precision: 3 });
    t.timestamp('cancelled_at', { useTz: true, precision: 3 });
  });
};

exports.down = async function down(knex) {
  await knex.schema.alterTable('chain_transactions', (t) => {
    t.dropColumn('fee_bumps');
    t.dropColumn('fee_limited_at');
    t.dropColumn('cancelled_at');
  });
};
