import { Db, knexOf } from './knex';

// The relayer's memory: nonces per (chain, sender) and every transaction it signed, stored before it is
// broadcast. A nonce is taken under a row lock in the same transaction that stores the signed bytes, so
// concurrent processes never sign two transactions for one nonce and a crash never leaves a nonce that
// nobody will send (the monitor re-broadcasts whatever is stored and not yet mined).

export type TxPurpose = 'collect' | 'direct' | 'settle';
export type TxStatus = 'pending' | 'mined' | 'confirmed' | 'reverted' | 'dropped';

export interface ChainTx {
  id: string;
  chainId: string;
  sender: string;
  nonce: number;
  purpose: TxPurpose;
  paymentId: string;
  to: `0x${string}`;
  calldata: `0x${string}`;
  gasLimit: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  raw: `0x${string}`;
  hash: `0x${string}`;
  previousHashes: `0x${string}`[];
  status: TxStatus;
  blockNumber: bigint | null;
  blockHash: string | null;
  signedAt: Date;
  broadcastAt: Date | null;
}

type Row = Record<string, any>;
const fromRow = (r: Row): ChainTx => ({
  id: String(r.id),
  chainId: r.chain_id,
  sender: r.sender,
  nonce: Number(r.nonce),
  purpose: r.purpose,
  paymentId: r.payment_id,
  to: r.to_address,
  calldata: r.calldata,
  gasLimit: BigInt(r.gas_limit),
  maxFeePerGas: BigInt(r.max_fee_per_gas),
  maxPriorityFeePerGas: BigInt(r.max_priority_fee_per_gas),
  raw: r.raw_tx,
  hash: r.tx_hash,
  previousHashes: r.previous_hashes ?? [],
  status: r.status,
  blockNumber: r.block_number === null ? null : BigInt(r.block_number),
  blockHash: r.block_hash,
  signedAt: r.signed_at,
  broadcastAt: r.broadcast_at,
});

export type NewTx = Pick<
  ChainTx,
  'chainId' | 'sender' | 'purpose' | 'paymentId' | 'to' | 'calldata' | 'gasLimit' | 'maxFeePerGas' | 'maxPriorityFeePerGas'
>;

export interface Authorization {
  chainId: string;
  token: string;
  from: string;
  nonce: string;
}

export class AuthorizationTaken extends Error {}

const isUniqueViolation = (e: unknown) => (e as { code?: string }).code === '23505';

/**
 * Takes the sender's next nonce, signs with it and stores the signed transaction, all in one database
 * transaction. `chainNonce` (the node's pending count) is used only the first time a sender is seen.
 * Returns null when the payment already has a live transaction of this purpose (a duplicate job).
 * With `authorization`, also claims it: one submission per (chain, token, signer, nonce), ever.
 */
export async function storeSignedTx(
  db: Db,
  tx: NewTx,
  chainNonce: () => Promise<number>,
  sign: (nonce: number) => Promise<{ raw: `0x${string}`; hash: `0x${string}` }>,
  authorization?: Authorization,
): Promise<ChainTx | null> {
  const knex = knexOf(db);
  const existing = await knex('relayer_nonces').where({ chain_id: tx.chainId, sender: tx.sender }).first('next_nonce');
  if (!existing) {
    const n = await chainNonce();
    await knex('relayer_nonces')
      .insert({ chain_id: tx.chainId, sender: tx.sender, next_nonce: n })
      .onConflict(['chain_id', 'sender'])
      .ignore();
  }
  try {
    return await knex.transaction(async (trx) => {
      if (authorization) {
        await trx('payment_authorizations')
          .insert({
            chain_id: authorization.chainId,
            token: authorization.token,
            from_address: authorization.from,
            auth_nonce: authorization.nonce,
            payment_id: tx.paymentId,
          })
          .onConflict(['chain_id', 'token', 'from_address', 'auth_nonce'])
          .ignore();
        const owner = await trx('payment_authorizations')
          .where({
            chain_id: authorization.chainId,
            token: authorization.token,
            from_address: authorization.from,
            auth_nonce: authorization.nonce,
          })
          .first('payment_id');
        if (owner.payment_id !== tx.paymentId) throw new AuthorizationTaken(owner.payment_id);
      }
      const live = await trx('chain_transactions')
        .where({ payment_id: tx.paymentId, purpose: tx.purpose })
        .whereNot('status', 'dropped')
        .first('id');
      if (live) return null;
      // The row lock is taken here and held to commit: sign, insert, commit are all that wait behind it.
      const {
        rows: [taken],
      } = await trx.raw(
        'UPDATE relayer_nonces SET next_nonce = next_nonce + 1 WHERE chain_id = ? AND sender = ? RETURNING next_nonce - 1 AS nonce',
        [tx.chainId, tx.sender],
      );
      const nonce = Number(taken.nonce);
      const { raw, hash } = await sign(nonce);
      const [row] = await trx('chain_transactions')
        .insert({
          chain_id: tx.chainId,
          sender: tx.sender,
          nonce,
          purpose: tx.purpose,
          payment_id: tx.paymentId,
          to_address: tx.to,
          calldata: tx.calldata,
          gas_limit: tx.gasLimit.toString(),
          max_fee_per_gas: tx.maxFeePerGas.toString(),
          max_priority_fee_per_gas: tx.maxPriorityFeePerGas.toString(),
          raw_tx: raw,
          tx_hash: hash,
        })
        .returning('*');
      return fromRow(row);
    });
  } catch (e) {
    if (isUniqueViolation(e)) return null; // a concurrent job stored this payment's transaction first
    throw e;
  }
}

/** A sender's transactions not yet final on a chain, oldest nonce first (re-broadcast order). */
export async function openTransactions(db: Db, chainId: string, sender: string, limit = 500): Promise<ChainTx[]> {
  const knex = knexOf(db);
  const rows = await knex('chain_transactions')
    .where({ chain_id: chainId, sender })
    .whereIn('status', ['pending', 'mined'])
    .orderBy('nonce')
    .limit(limit);
  return rows.map(fromRow);
}

export async function liveTransaction(db: Db, paymentId: string, purpose: TxPurpose): Promise<ChainTx | undefined> {
  const knex = knexOf(db);
  const r = await knex('chain_transactions').where({ payment_id: paymentId, purpose }).whereNot('status', 'dropped').first();
  return r && fromRow(r);
}

export async function markBroadcast(db: Db, id: string): Promise<void> {
  const knex = knexOf(db);
  await knex('chain_transactions').where({ id }).update({ broadcast_at: knex.fn.now() });
}

export async function markMined(db: Db, id: string, minedHash: string, blockNumber: bigint, blockHash: string): Promise<void> {
  const knex = knexOf(db);
  await knex('chain_transactions')
    .where({ id })
    .whereIn('status', ['pending', 'mined'])
    .update({
      status: 'mined',
      block_number: blockNumber.toString(),
      block_hash: blockHash,
      // The mined hash becomes the current one; the others stay as previous hashes.
      tx_hash: minedHash,
      previous_hashes: knex.raw(`array_remove(array_append(previous_hashes, tx_hash), ?)`, [minedHash]),
    });
}

/** A reorg took the transaction out of the chain: back to pending, to be broadcast again. */
export async function markReorged(db: Db, id: string): Promise<void> {
  const knex = knexOf(db);
  await knex('chain_transactions')
    .where({ id, status: 'mined' })
    .update({ status: 'pending', block_number: null, block_hash: null, broadcast_at: null });
}

/** Final: confirmed or reverted at the confirmation depth; dropped when its nonce went to another transaction. */
export async function finish(
  db: Db,
  id: string,
  status: 'confirmed' | 'reverted' | 'dropped',
  mined?: { transactionHash: string; blockNumber: bigint; blockHash: string },
): Promise<boolean> {
  const knex = knexOf(db);
  const n = await knex('chain_transactions')
    .where({ id })
    .whereIn('status', ['pending', 'mined'])
    .update({
      status,
      finished_at: knex.fn.now(),
      ...(mined
        ? {
            block_number: mined.blockNumber.toString(),
            block_hash: mined.blockHash,
            tx_hash: mined.transactionHash,
            previous_hashes: knex.raw(`array_remove(array_append(previous_hashes, tx_hash), ?)`, [mined.transactionHash]),
          }
        : {}),
    });
  return n > 0;
}

/** A fee-bumped replacement at the same nonce: the old hash stays known (either may be mined). */
export async function replace(
  db: Db,
  id: string,
  raw: string,
  hash: string,
  fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
): Promise<void> {
  const knex = knexOf(db);
  await knex('chain_transactions')
    .where({ id, status: 'pending' })
    .update({
      raw_tx: raw,
      tx_hash: hash,
      previous_hashes: knex.raw('array_append(previous_hashes, tx_hash)'),
      max_fee_per_gas: fees.maxFeePerGas.toString(),
      max_priority_fee_per_gas: fees.maxPriorityFeePerGas.toString(),
      signed_at: knex.fn.now(),
      broadcast_at: null,
    });
}

/** After a transaction lost its nonce to another: continue from the node's count. */
export async function resyncNonce(db: Db, chainId: string, sender: string, chainNonce: number): Promise<void> {
  const knex = knexOf(db);
  await knex('relayer_nonces')
    .where({ chain_id: chainId, sender })
    .update({ next_nonce: knex.raw('greatest(next_nonce, ?)', [chainNonce]) });
}

/**
 * One process at a time watches a relayer key on a chain (`chain_monitors.chain_id` holds "<caip2>/<address>"),
 * and only a process that holds the key (it may have to sign a replacement). The lease is renewed every
 * pass and taken over when it lapses.
 */
export async function takeMonitorLease(db: Db, chainId: string, holder: string, ms: number): Promise<boolean> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `INSERT INTO chain_monitors (chain_id, holder, lease_until) VALUES (?, ?, now() + make_interval(secs => ?))
     ON CONFLICT (chain_id) DO UPDATE SET holder = EXCLUDED.holder, lease_until = EXCLUDED.lease_until
       WHERE chain_monitors.holder = EXCLUDED.holder OR chain_monitors.lease_until < now()
     RETURNING holder`,
    [chainId, holder, ms / 1000],
  );
  return rows.length > 0;
}

export async function releaseMonitorLease(db: Db, chainId: string, holder: string): Promise<void> {
  const knex = knexOf(db);
  await knex('chain_monitors').where({ chain_id: chainId, holder }).del();
}

/** For metrics: pending transactions per chain and sender, and the age of the oldest. */
export async function pendingStats(db: Db): Promise<{ chainId: string; sender: string; pending: number; oldestAgeS: number }[]> {
  const knex = knexOf(db);
  const rows = await knex('chain_transactions')
    .whereIn('status', ['pending', 'mined'])
    .groupBy('chain_id', 'sender')
    .select(
      'chain_id',
      'sender',
      knex.raw('count(*)::int as pending'),
      knex.raw('extract(epoch from now() - min(created_at))::float8 as age'),
    );
  return rows.map((r: Row) => ({ chainId: r.chain_id, sender: r.sender, pending: Number(r.pending), oldestAgeS: Number(r.age) }));
}
