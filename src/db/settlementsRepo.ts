import { canBeStoredId } from '../domain/ids';
import type { CryptoSettlement } from '../domain/merchant';
import { Db, knexOf } from './knex';

export interface SettlementRow extends CryptoSettlement {
  chainId: string;
}

const COLS = ['id', 'asset', 'destination', 'chain_id as chainId'];

export async function insertSettlements(db: Db, merchantId: string, rows: SettlementRow[]): Promise<void> {
  const knex = knexOf(db);
  await knex('crypto_settlements').insert(
    rows.map((r) => ({ id: r.id, merchant_id: merchantId, asset: r.asset, chain_id: r.chainId, destination: r.destination })),
  );
}

export async function settlementAssets(db: Db, merchantId: string): Promise<string[]> {
  const knex = knexOf(db);
  return (await knex('crypto_settlements').where({ merchant_id: merchantId }).select('asset')).map((r) => r.asset);
}

export async function findSettlement(db: Db, merchantId: string, id: string): Promise<SettlementRow | undefined> {
  const knex = knexOf(db);
  if (!canBeStoredId(merchantId) || !canBeStoredId(id)) return undefined;
  return knex('crypto_settlements').where({ merchant_id: merchantId, id }).first(COLS);
}

export async function updateDestination(db: Db, id: string, destination: string): Promise<void> {
  const knex = knexOf(db);
  await knex('crypto_settlements').where({ id }).update({ destination });
}

export async function deleteSettlement(db: Db, merchantId: string, id: string): Promise<boolean> {
  const knex = knexOf(db);
  return (await knex('crypto_settlements').where({ merchant_id: merchantId, id }).delete()) > 0;
}
