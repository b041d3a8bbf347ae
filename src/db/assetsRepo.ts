import type { Asset } from '../domain/asset';
import { Db, knexOf } from './knex';

export type { Asset };

export const ASSET_COLUMNS = [
  'id',
  'chain_id',
  'symbol',
  'name',
  'decimals',
  'network_name',
  'icon_url',
  'network_icon_url',
  'peg_currency',
  'eip712_name',
  'eip712_version',
  'transfer_method',
];

export const assetFromRow = (r: Record<string, any>, prefix = ''): Asset => ({
  id: r[`${prefix}id`],
  chainId: r[`${prefix}chain_id`],
  symbol: r[`${prefix}symbol`],
  name: r[`${prefix}name`],
  decimals: Number(r[`${prefix}decimals`]),
  networkName: r[`${prefix}network_name`],
  iconUrl: r[`${prefix}icon_url`],
  networkIconUrl: r[`${prefix}network_icon_url`],
  pegCurrency: r[`${prefix}peg_currency`],
  eip712Name: r[`${prefix}eip712_name`],
  eip712Version: r[`${prefix}eip712_version`],
  transferMethod: r[`${prefix}transfer_method`],
});

export async function findAssets(db: Db, ids: string[]): Promise<Map<string, Asset>> {
  const knex = knexOf(db);
  if (!ids.length) return new Map();
  const rows = await knex('assets').whereIn('id', ids).andWhere({ enabled: true }).select(ASSET_COLUMNS);
  return new Map(rows.map((r) => [r.id, assetFromRow(r)]));
}

export async function listAssets(db: Db): Promise<Asset[]> {
  const knex = knexOf(db);
  return (
    await knex('assets')
      .orderBy(['chain_id', 'symbol'])
      .select([...ASSET_COLUMNS])
  ).map((r) => assetFromRow(r));
}

export async function upsertAsset(db: Db, a: Asset): Promise<void> {
  const knex = knexOf(db);
  await knex('assets')
    .insert({
      id: a.id,
      chain_id: a.chainId,
      symbol: a.symbol,
      name: a.name,
      decimals: a.decimals,
      network_name: a.networkName,
      icon_url: a.iconUrl,
      network_icon_url: a.networkIconUrl,
      peg_currency: a.pegCurrency,
      eip712_name: a.eip712Name,
      eip712_version: a.eip712Version,
      transfer_method: a.transferMethod,
      enabled: true,
    })
    .onConflict('id')
    .merge();
}

/** The enabled assets of these chains (CAIP-2), by chain and symbol. */
export async function enabledAssetsOn(db: Db, chainIds: string[]): Promise<Asset[]> {
  if (!chainIds.length) return [];
  const rows = await knexOf(db)('assets')
    .whereIn('chain_id', chainIds)
    .andWhere({ enabled: true })
    .orderBy(['chain_id', 'symbol'])
    .select(ASSET_COLUMNS);
  return rows.map((r) => assetFromRow(r));
}
