// Why: a confirm stored its option's id on the payment with nothing holding the option in place. Quotes were purged
// a payment's oldest first, whoever asked for them, so an option could go in the instant between a confirm's read
// and its UPDATE: the payment was then `processing` with an option id that named nothing, which the relayer cannot
// submit, and it stayed so (issue 28, finding 9). payments.option_id now references payment_options: such an
// UPDATE fails (the confirm answers 404 option_not_found and the payment stays payable), and an option a payment
// refers to cannot be deleted. The index lets each deletion of an option find its referrers without reading
// every payment.
//
// Ids that already name nothing are cleared first, so that the key can be validated: they refer to nothing that
// can be read back, and the payments left processing without an option are what the reconciler reports (an error
// log and paygate_payments_unsubmittable).
//
// Outside a transaction, as in 20261130090000: the index is built plainly (a concurrent build would wait for the
// starting processes, which wait for the migration lock this process holds); the key is added NOT VALID (a brief
// lock: writes are checked from then on), the dangling ids cleared, then the key validated without blocking writes.
// Each step can run again (a process that dies halfway leaves a state the next start completes).

exports.config = { transaction: false };

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('CREATE INDEX IF NOT EXISTS payments_option_id_idx ON payments (option_id) WHERE option_id IS NOT NULL');
  const { rows } = await knex.raw(
    "SELECT 1 FROM pg_constraint WHERE conrelid = 'payments'::regclass AND conname = 'payments_option_id_foreign'",
  );
  if (rows.length === 0) {
    await knex.raw(`ALTER TABLE payments ADD CONSTRAINT payments_option_id_foreign
      FOREIGN KEY (option_id) REFERENCES payment_options (id) NOT VALID`);
  }
  await knex.raw(`UPDATE payments p SET option_id = NULL
    WHERE p.option_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM payment_options o WHERE o.id = p.option_id)`);
  await knex.raw('ALTER TABLE payments VALIDATE CONSTRAINT payments_option_id_foreign');
};

exports.down = async function down() {
  throw new Error('Migrations are forward-only.');
};
