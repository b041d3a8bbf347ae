// Why: the webhook claim policy and the recording of successes were PL/pgSQL copied whole into each migration that
// changed them (20261126090000, 20261128090000, 20261129090000, 20261201090200). Their definitions now live in one
// file each, migrations/functions/<name>.sql, which this migration (and any later one that changes a function)
// loads. The bodies are those of 20261201090200, unchanged in meaning: arguments, results and choices are as before,
// so processes of the previous release call them unchanged during a rolling deploy.
const { createFunctions } = require('./functions');

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await createFunctions(knex, ['webhook_claim_delivery', 'webhook_claim_deliveries', 'webhook_record_successes']);
};

/** Nothing to undo: the bodies are those of 20261201090200. */
exports.down = async function down() {};
