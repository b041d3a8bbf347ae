// Why: a chain's own coin (ETH on Ethereum and its rollups, `eip155:<id>/slip44:60`) is paid by the buyer's own
// transaction to the router contract (contracts/router/), not by a signed token authorization: an asset's transfer
// method may now be 'native' (issue 49). A native asset has no EIP-712 domain.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('ALTER TABLE assets DROP CONSTRAINT assets_transfer_method_check');
  await knex.raw(
    `ALTER TABLE assets ADD CONSTRAINT assets_transfer_method_check CHECK (transfer_method IN ('eip3009', 'permit2', 'native'))`,
  );
  await knex.raw(`ALTER TABLE assets ADD CONSTRAINT assets_native_id_check CHECK ((transfer_method = 'native') = (id LIKE '%/slip44:%'))`);
};

// Down refuses (the old check fails) while a native asset is registered: remove its settlements and options first.
exports.down = async function down(knex) {
  await knex.raw('ALTER TABLE assets DROP CONSTRAINT assets_native_id_check');
  await knex.raw('ALTER TABLE assets DROP CONSTRAINT assets_transfer_method_check');
  await knex.raw(`ALTER TABLE assets ADD CONSTRAINT assets_transfer_method_check CHECK (transfer_method IN ('eip3009', 'permit2'))`);
};
