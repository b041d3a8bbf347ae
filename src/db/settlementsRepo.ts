import type { Knex } from 'knex';
import { canBeStoredId } from '../domain/ids';
import type { CryptoSettlement } from '../domain/merchant';

export interface SettlementRow extends CryptoSettlement {
  chainId: string;
}

const COLS = ['id', 'asset', 'destination', 'chain_id as chainId'];

export async function insertSettlements(db: Knex, merchantId: string, rows: SettlementRow[]): Promise<void> {
  await db('crypto_settlements').insert(
    rows.map((r) => ({ id: r.id, merchant_id: merchantId, asset: r.asset, chain_id: r.chainId, destination: r.destination })),
  );
}

export async function settlementAssets(db: Knex, merchantId: string): Promise<string[]> {
  return (await db('crypto_settlements').where({ merchant_id: merchantId }).select('asset')).map((r) => r.asset);
}

export async function findSettlement(db: Knex, merchantId: string, id: string): Promise<SettlementRow | undefined> {
  if (!canBeStoredId(merchantId) || !canBeStoredId(id)) return undefined;
  return db('crypto_settlements').where({ merchant_id: merchantId, id }).first(COLS);
}

export async function updateDestination(db: Knex, id: string, destination: string): Promise<void> {
  await db('crypto_settlements').where({ id }).update({ destination });
}

export async function deleteSettlement(db: Knex, merchantId: string, id: string): Promise<boolean> {
  return (await db('crypto_settlements').where({ merchant_id: merchantId, id }).delete()) > 0;
}
