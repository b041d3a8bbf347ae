import { Db, knexOf } from './knex';

// x402_deposit_keys (migration 20261228090000): each account scope's x402 deposit address and its sealed key.

export interface StoredDepositKey {
  scope: string;
  address: string;
  /** Sealed for (x402_deposit_keys, private_key, scope): src/db/sealedColumnsRepo.ts. */
  sealedKey: Buffer;
}

const toKey = (r: Record<string, any>): StoredDepositKey => ({ scope: r.scope, address: r.address, sealedKey: r.private_key });

export async function depositKeyOf(db: Db, scope: string): Promise<StoredDepositKey | undefined> {
  const r = await knexOf(db)('x402_deposit_keys').where({ scope }).first();
  return r && toKey(r);
}

/** Stores the scope's key unless it has one already (two first requests at once): the one stored either way. */
export async function storeDepositKey(db: Db, k: StoredDepositKey): Promise<StoredDepositKey> {
  const knex = knexOf(db);
  await knex('x402_deposit_keys').insert({ scope: k.scope, address: k.address, private_key: k.sealedKey }).onConflict('scope').ignore();
  return (await depositKeyOf(db, k.scope))!;
}
