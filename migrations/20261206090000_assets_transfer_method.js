// Why: a buyer pays a token either with an EIP-3009 authorization (USDC, EURC) or, for any ERC-20 without it
// (USDT), through Uniswap's Permit2 (issue 29). The registry says which, per asset. Assets registered without
// an EIP-712 domain (the seeded USDTs, operators' tokens such as DAI) cannot be paid with EIP-3009: Permit2.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`ALTER TABLE assets ADD COLUMN transfer_method text NOT NULL DEFAULT 'eip3009'`);
  await knex.raw(`UPDATE assets SET transfer_method = 'permit2' WHERE eip712_name IS NULL OR eip712_version IS NULL`);
  await knex.raw(`ALTER TABLE assets ADD CONSTRAINT assets_transfer_method_check CHECK (transfer_method IN ('eip3009', 'permit2'))`);
  await knex.raw(
    `ALTER TABLE assets ADD CONSTRAINT assets_eip3009_domain_check
       CHECK (transfer_method <> 'eip3009' OR (eip712_name IS NOT NULL AND eip712_version IS NOT NULL))`,
  );
};

exports.down = async function down(knex) {
  await knex.raw(`ALTER TABLE assets DROP COLUMN transfer_method`);
};
