// Why: anyone with a payment's pay link could overwrite a buyer's collected data through the hosted
// `POST /collect` (issue 28, finding 14). The collect link now carries a token handed only to the gateway
// caller that asked for the options (src/domain/collectLink.ts); each option stores the SHA-256 of its link's
// token, so the form writes only the options of that link, and a later quote inherits data only from them.
// Options quoted before this have none: their link no longer writes (quotes live minutes; ask again).

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.alterTable('payment_options', (t) => {
    t.binary('collect_scope');
  });
};

exports.down = async function down(knex) {
  await knex.schema.alterTable('payment_options', (t) => {
    t.dropColumn('collect_scope');
  });
};
