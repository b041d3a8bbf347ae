// Why: payment_events.data holds the payment already rendered for the wire (the 2026-02-19.preview
// PaymentEventSnapshot), so an event cannot be shown in another shape once an API version changes it. Events
// now also carry `record`: version-neutral facts (src/domain/paymentEvent.ts) that src/wire/ renders per
// version.
//
// Expand, then contract, so that a rolling deploy never serves a shape a running process does not expect:
// - this release (expand) writes both: `record`, which it reads, and `data` as before, which processes of the
//   previous release still running read and send as webhook bodies. Events stored before it have no
//   `record`; it reads their `data` (src/db/webhooksRepo.ts). Adding a nullable column rewrites no rows.
// - a later release (contract), once no process of this one's predecessor runs, backfills `record`, stops
//   writing `data` and drops it.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('ALTER TABLE payment_events ADD COLUMN record jsonb');
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.raw('ALTER TABLE payment_events DROP COLUMN record');
};
