// Why: the contract step of 20261127090100_payment_events_record. Since that release every event carries
// `record` (version-neutral facts) and every process reads `record` first, so `data` (the 2026-02-19.preview
// snapshot written beside it for processes of the release before) is no longer read for new events. This
// release stops writing it: a new event row is about half the size, and creating a payment builds one JSON
// document instead of two. Events stored before `record` existed keep their `data`, and are still read from it
// (src/db/webhooksRepo.ts, recordOf). Dropping the column needs `record` backfilled first: a later release.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('ALTER TABLE payment_events ALTER COLUMN data DROP NOT NULL');
};

/**
 * Leaves the column optional: the release before this one reads `record` whenever it is there, and events
 * written since have it, so a NULL `data` is never read.
 * @param {import('knex').Knex} knex
 */
exports.down = async function down() {};
