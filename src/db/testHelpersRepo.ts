import { knexOf, type Db } from './knex';
import { TX_OPEN } from '../domain/chainTx';

// What the test helpers (src/usecases/testHelpers/) keep and read: stalls asked for, a payment's expiry brought to
// now, the payment's transaction a reorg may drop.

/** The next transaction signed for the payment offers less than the base fee (src/usecases/testHelpers/stall.ts). */
export async function requestStall(db: Db, paymentId: string): Promise<void> {
  await knexOf(db)('test_helper_stalls').insert({ payment_id: paymentId }).onConflict('payment_id').ignore();
}

/** Of `paymentIds`, those whose next transaction is to stall. */
export async function stallsAsked(db: Db, paymentIds: string[]): Promise<Set<string>> {
  if (!paymentIds.length) return new Set();
  const rows = await knexOf(db)('test_helper_stalls').whereIn('payment_id', paymentIds).pluck('payment_id');
  return new Set(rows);
}

/** The stall was applied: in the transaction that stores the stalled transaction. */
export async function stallTaken(db: Db, paymentId: string): Promise<void> {
  await knexOf(db)('test_helper_stalls').where({ payment_id: paymentId }).delete();
}

/** An open payment's expiry set to the database's now; false when the payment is not open. */
export async function expiryNow(db: Db, paymentId: string): Promise<boolean> {
  const n = await knexOf(db)('payments')
    .where({ id: paymentId, status: 'requires_action' })
    .update({ expires_at: knexOf(db).fn.now() });
  return n > 0;
}

/** The payment's transaction that is mined and not yet final (the latest, of any purpose), or null. */
export async function minedTransaction(db: Db, paymentId: string): Promise<{ hash: string; chainId: string } | null> {
  const row = await knexOf(db)('chain_transactions')
    .where({ payment_id: paymentId, status: 'mined' })
    .orderBy('id', 'desc')
    .first('tx_hash', 'chain_id');
  return row ? { hash: row.tx_hash, chainId: row.chain_id } : null;
}

/** The address in lower case, as the address lookup indexes hold it (migration 20261225090100). */
const addressOf = (column: string) => `lower(split_part(${column}, ':', 3))`;

/**
 * Who besides `accountId` the address is something to: `instance` when a relayer key of this instance ever sent from
 * it (on any chain, retired keys included) or it is an account's x402 deposit address, `account` when another account
 * (another test scope, or a live one) uses it as a settlement destination, or as the buyer of a payment or a quote;
 * else null.
 */
export async function addressUse(db: Db, address: string, accountId: string): Promise<'instance' | 'account' | null> {
  const bindings = { a: address.toLowerCase(), acct: accountId };
  const { rows } = await knexOf(db).raw(
    `SELECT EXISTS (SELECT 1 FROM relayer_nonces WHERE lower(sender) = :a)
         OR EXISTS (SELECT 1 FROM x402_deposit_keys WHERE lower(address) = :a) AS instance,
            EXISTS (SELECT 1 FROM crypto_settlements s JOIN merchants m ON m.id = s.merchant_id
                    WHERE ${addressOf('s.destination')} = :a AND m.account_id <> :acct)
         OR EXISTS (SELECT 1 FROM settlement_batches WHERE ${addressOf('destination')} = :a AND account_id <> :acct)
         OR EXISTS (SELECT 1 FROM payments WHERE buyer_account IS NOT NULL
                    AND ${addressOf('buyer_account')} = :a AND account_id <> :acct)
         OR EXISTS (SELECT 1 FROM payments WHERE settlement_destination IS NOT NULL
                    AND ${addressOf('settlement_destination')} = :a AND account_id <> :acct)
         OR EXISTS (SELECT 1 FROM payment_options o JOIN payments p ON p.id = o.payment_id
                    WHERE o.account IS NOT NULL AND ${addressOf('o.account')} = :a AND p.account_id <> :acct) AS account`,
    bindings,
  );
  return rows[0].instance ? 'instance' : rows[0].account ? 'account' : null;
}

/**
 * Records `accountId`'s blacklisting of the address on the chain, unless another scope's stands: the scope whose
 * blacklisting stands afterwards.
 */
export async function claimBlacklisting(db: Db, chainId: string, address: string, accountId: string): Promise<string> {
  const knex = knexOf(db);
  await knex('test_helper_blacklists')
    .insert({ chain_id: chainId, address, account_id: accountId })
    .onConflict(['chain_id', 'address'])
    .ignore();
  const row = await knex('test_helper_blacklists').where({ chain_id: chainId, address }).first('account_id');
  return row.account_id;
}

/** The scope whose blacklisting of the address on the chain stands, or null. */
export async function blacklistedBy(db: Db, chainId: string, address: string): Promise<string | null> {
  const row = await knexOf(db)('test_helper_blacklists').where({ chain_id: chainId, address }).first('account_id');
  return row?.account_id ?? null;
}

/** `accountId`'s blacklisting of the address was taken back. */
export async function releaseBlacklisting(db: Db, chainId: string, address: string, accountId: string): Promise<void> {
  await knexOf(db)('test_helper_blacklists').where({ chain_id: chainId, address, account_id: accountId }).delete();
}

/**
 * Whether the sender's transactions at `nonces`, and its open ones after the first of them, are all for payments and
 * settlements of `accountId`: what a reorg dropping them would touch. A nonce with no stored transaction is not.
 */
export async function onlyTransactionsOf(db: Db, chainId: string, sender: string, nonces: number[], accountId: string): Promise<boolean> {
  if (!nonces.length) return true;
  const knex = knexOf(db);
  const rows: { nonce: string; owner: string | null }[] = await knex('chain_transactions as c')
    .leftJoin('payments as p', 'p.id', 'c.payment_id')
    .leftJoin('settlement_batches as b', 'b.chain_tx_id', 'c.id')
    .where({ 'c.chain_id': chainId, 'c.sender': sender })
    .where((q) =>
      q.whereIn('c.nonce', nonces).orWhere((open) => open.whereIn('c.status', TX_OPEN).where('c.nonce', '>', Math.min(...nonces))),
    )
    .select('c.nonce', knex.raw('coalesce(p.account_id, b.account_id) AS owner'));
  const own = new Set(rows.filter((r) => r.owner === accountId).map((r) => Number(r.nonce)));
  return rows.every((r) => r.owner === accountId) && nonces.every((n) => own.has(n));
}
