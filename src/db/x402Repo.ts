import { ASSET_COLUMNS, Asset, assetFromRow } from './assetsRepo';
import { Db, knexOf } from './knex';
import { standing } from './relayer';
import { PAYING_PURPOSES } from '../domain/chainTx';

// The x402 facilitator's reads and its one table (migration 20261208090000): which asset an x402 requirement
// names, which merchant of the account a `payTo` pays, and the settlements, one per authorization.

/** The enabled asset of `chainId` at the token address `token` (any case), or undefined. */
export async function assetAt(db: Db, chainId: string, token: string): Promise<Asset | undefined> {
  const knex = knexOf(db);
  const r = await knex('assets')
    .where({ chain_id: chainId, enabled: true })
    .andWhereRaw('lower(id) = lower(?)', [`${chainId}/erc20:${token}`])
    .first(ASSET_COLUMNS);
  return r && assetFromRow(r);
}

/**
 * The account's merchants (not deleted) with a settlement of `asset`, oldest settlement first: those whose
 * destination is `destination` when it is given, else all.
 */
export async function merchantsSettling(db: Db, accountId: string, asset: string, destination?: string): Promise<string[]> {
  const knex = knexOf(db);
  const q = knex('crypto_settlements as s')
    .join('merchants as m', 'm.id', 's.merchant_id')
    .where({ 'm.account_id': accountId, 's.asset': asset })
    .whereNull('m.deleted_at')
    .orderBy([{ column: 's.created_at' }, { column: 's.id' }]);
  if (destination !== undefined) q.andWhereRaw('lower(s.destination) = lower(?)', [destination]);
  return q.pluck('s.merchant_id');
}

export interface X402Settlement {
  paymentId: string;
  accountId: string;
  chainId: string;
  token: string;
  payer: string;
  nonce: string;
  paymentIdentifier: string | null;
}

const fromRow = (r: Record<string, any>): X402Settlement => ({
  paymentId: r.payment_id,
  accountId: r.account_id,
  chainId: r.chain_id,
  token: r.token,
  payer: r.payer,
  nonce: r.nonce,
  paymentIdentifier: r.payment_identifier,
});

/**
 * Records the settlement unless its authorization, or its payment identifier within the account, is recorded
 * already: true when it was recorded. A concurrent insert of the same authorization waits for the other
 * transaction and then records nothing.
 */
export async function recordSettlement(db: Db, s: X402Settlement): Promise<boolean> {
  const knex = knexOf(db);
  const { rowCount } = await knex.raw(
    `INSERT INTO x402_settlements (payment_id, account_id, chain_id, token, payer, nonce, payment_identifier)
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    [s.paymentId, s.accountId, s.chainId, s.token, s.payer, s.nonce, s.paymentIdentifier],
  );
  return rowCount === 1;
}

/** The settlement of this authorization, or of this payment identifier of the account (the authorization's first). */
export async function findSettlement(
  db: Db,
  a: Pick<X402Settlement, 'accountId' | 'chainId' | 'token' | 'payer' | 'nonce' | 'paymentIdentifier'>,
): Promise<X402Settlement | undefined> {
  const knex = knexOf(db);
  const rows: Record<string, any>[] = await knex('x402_settlements')
    .where({ chain_id: a.chainId, token: a.token, payer: a.payer, nonce: a.nonce })
    .modify((q) => {
      if (a.paymentIdentifier !== null) q.orWhere({ account_id: a.accountId, payment_identifier: a.paymentIdentifier });
    })
    .select('*');
  const byAuthorization = rows.find((r) => r.nonce === a.nonce && r.payer === a.payer && r.chain_id === a.chainId && r.token === a.token);
  const any = byAuthorization ?? rows[0];
  return any && fromRow(any);
}

/**
 * The hash of the payment's transfer the relayer stands by (signed and stored, being broadcast or mined, not dropped or
 * reverted), the latest when a fee bump replaced one; undefined before the relayer signed one.
 */
export async function standingTransfer(db: Db, paymentId: string): Promise<string | undefined> {
  const r = await knexOf(db)('chain_transactions as c')
    .where('c.payment_id', paymentId)
    .whereIn('c.purpose', PAYING_PURPOSES)
    .whereNotNull('c.tx_hash')
    .whereRaw(standing('c'))
    .orderBy('c.id', 'desc')
    .first('c.tx_hash');
  return r?.tx_hash ?? undefined;
}

export async function settlementOf(db: Db, paymentId: string): Promise<X402Settlement | undefined> {
  const r = await knexOf(db)('x402_settlements').where({ payment_id: paymentId }).first('*');
  return r && fromRow(r);
}
