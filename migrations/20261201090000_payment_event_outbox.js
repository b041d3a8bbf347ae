// Why: the webhook outbox rewrote every event. Events waited for their fan-out as payment_events rows with
// dispatched_at NULL (found by a partial index), and the dispatcher marked each one dispatched: an UPDATE that
// cannot be HOT (dispatched_at is in the partial index's predicate), so it wrote a second copy of the event row
// (about 1 KB of JSON) with new entries in each of its indexes. Now each new event also writes one small row
// here, in the same statement (so in the same transaction as the change), and the dispatcher DELETEs the rows
// it fans out (SKIP LOCKED, in the statement that inserts their deliveries). The event row is written once.
//
// Rolling deploy (expand, then contract):
// - this release writes its events with dispatched_at already set (so the partial index never holds them, and
//   dispatchers of the previous release, which take dispatched_at IS NULL, leave them alone) and queues them
//   here. Its dispatcher takes both: rows queued here, and events with dispatched_at NULL, which processes of
//   the previous release still write (src/db/webhooksRepo.ts, dispatchStatement). An event fanned out twice
//   (cannot happen: each is found one way only) would still get one delivery per endpoint
//   (webhook_deliveries_first_idx).
// - while only processes of the previous release dispatch (workers not yet replaced), events of this release
//   wait here until a process of this release runs: delayed, not lost.
// - going back to the previous release's code on this schema (migrations are forward-only, so that is how a
//   rollback goes): its dispatchers do not read this table, so stop every process of this release first and
//   hand the queued events back in one transaction (docs/upgrading.md):
//     UPDATE payment_events SET dispatched_at = NULL WHERE id IN (SELECT event_id FROM payment_event_outbox);
//     DELETE FROM payment_event_outbox;
// - a later release (contract), once no process of the previous release runs and no event has dispatched_at
//   NULL, drops payment_events_undispatched_idx and dispatched_at.
//
// A queue row carries what the fan-out matches endpoints by (the event's account and type), so the dispatcher
// reads no event row. No foreign key to payment_events: a queue row lives milliseconds, and the check would
// cost every write a lookup and a lock of the event row.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`CREATE TABLE payment_event_outbox (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id text NOT NULL,
    account_id text NOT NULL,
    type text NOT NULL
  )`);
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  // Events still queued go back to the previous release's outbox: nothing waiting is lost. The queue is locked
  // first, so that no row a process of this release commits meanwhile is dropped with the table unreturned.
  await knex.transaction(async (trx) => {
    await trx.raw('LOCK TABLE payment_event_outbox IN ACCESS EXCLUSIVE MODE');
    await trx.raw('UPDATE payment_events SET dispatched_at = NULL WHERE id IN (SELECT event_id FROM payment_event_outbox)');
    await trx.raw('DROP TABLE payment_event_outbox');
  });
};
