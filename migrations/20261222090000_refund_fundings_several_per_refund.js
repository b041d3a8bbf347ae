// Why: a refund still short once its funding payment is paid (the balance that payment was sized against moved,
// or the funding was paid at another collector than the rest of the refund's funds) waited with no way forward
// (issue 31). It now gets another funding payment of what it still lacks: a refund may have several, the latest
// the one its fundingInstructions show; a payment still funds one refund at most.

/** @param {import('knex').Knex} knex */
exports.up = async (knex) => {
  await knex.raw(`ALTER TABLE refund_fundings DROP CONSTRAINT refund_fundings_pkey`);
  await knex.raw(`ALTER TABLE refund_fundings DROP CONSTRAINT refund_fundings_payment_id_key`);
  await knex.raw(`ALTER TABLE refund_fundings ADD CONSTRAINT refund_fundings_pkey PRIMARY KEY (payment_id)`);
  await knex.raw(`CREATE INDEX refund_fundings_refund_idx ON refund_fundings (refund_id, created_at)`);
};

/** @param {import('knex').Knex} knex */
exports.down = async (knex) => {
  await knex.raw(`DROP INDEX refund_fundings_refund_idx`);
  await knex.raw(`ALTER TABLE refund_fundings DROP CONSTRAINT refund_fundings_pkey`);
  await knex.raw(`ALTER TABLE refund_fundings ADD CONSTRAINT refund_fundings_payment_id_key UNIQUE (payment_id)`);
  await knex.raw(`ALTER TABLE refund_fundings ADD CONSTRAINT refund_fundings_pkey PRIMARY KEY (refund_id)`);
};
