// Why: a partner's receiver written for the hosted WalletConnect Pay service reads its webhook payload contract
// (`api_version` 2026-05-18: snake_case envelope and payment snapshot with stage objects), not ours (issue 45).
// Each endpoint now says which of the two it receives; every existing endpoint keeps ours (`paygate`), so what it
// receives does not change (docs/webhooks.md).

/** @param {import('knex').Knex} knex */
exports.up = async (knex) => {
  await knex.raw(`ALTER TABLE webhook_endpoints ADD COLUMN payload_format text NOT NULL DEFAULT 'paygate',
    ADD CONSTRAINT webhook_endpoints_payload_format_check CHECK (payload_format IN ('paygate', '2026-05-18'))`);
};

/** @param {import('knex').Knex} knex */
exports.down = async (knex) => {
  await knex.raw('ALTER TABLE webhook_endpoints DROP COLUMN payload_format');
};
