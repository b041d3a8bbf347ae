// Why: a partner may limit a key to named merchants of its account (issue 48, preview `POST /v1/api-keys`
// `merchantIds`): the key then reaches only the operations naming one of them, any other is 403 key_restricted
// (src/http/pipeline/authenticate.ts, `authorize`; docs/keys.md). Null: the key is not limited.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`ALTER TABLE api_keys ADD COLUMN merchant_ids text[],
    ADD CONSTRAINT api_keys_merchant_ids_check CHECK (merchant_ids IS NULL OR cardinality(merchant_ids) BETWEEN 1 AND 20)`);
};

exports.down = async function down(knex) {
  await knex.raw('ALTER TABLE api_keys DROP COLUMN merchant_ids');
};
