import type { Knex } from 'knex';
import type { CryptoSettlement } from '../domain/merchant';

export interface SettlementRow extends CryptoSettlement {
  chainId: string;
}

const COLS = ['id', 'asset', 'destination', 'chain_id as chainId'];

export async function insertSettlements(db: Knex, merchantId: string, rows: SettlementRow[]): Promise<void> {
  await db('crypto_settlements').insert(rows.map((r) => ({ id: r.id, merchant_id: merchantId, asset: r.asset, chain_id: r.chainId, destination: r.destination })));
}

export async function settlementAssets(db: Knex, merchantId: string): Promise<string[]> {
  return (await db('crypto_settlements').where({ merchant_id: merchantId }).select('asset')).map((r) => r.asset);
}

export async function findSettlement(db: Knex, merchantId: string, id: string): Promise<SettlementRow | undefined> {
  return db('crypto_settlements').where({ merchant_id: merchantId, id }).first(COLS);
}

export async function updateDestination(db: Knex, id: string, destination: string): Promise<void> {
  await db('crypto_settlements').where({ id }).update({ destination });
}

export async function deleteSettlement(db: Knex, merchantId: string, id: string): Promise<boolean> {
  return (await db('crypto_settlements').where({ merchant_id: merchantId, id }).delete()) > 0;
}

/** Does the merchant settle any enabled asset pegged to this currency? */
export async function hasSettlementFor(db: Knex, merchantId: string, currency: string): Promise<boolean> {
  const row = await db('crypto_settlements as s')
    .join('assets as a', 'a.id', 's.asset')
    .where({ 's.merchant_id': merchantId, 'a.peg_currency': currency, 'a.enabled': true })
    .first(db.raw('1 as ok'));
  return Boolean(row);
}
