import { Db, knexOf } from '../knex';
import type { RevertCause, Row } from './transactions';
import { PAYING_PURPOSES, TX_OPEN } from '../../domain/chainTx';
import { inSet } from '../stateSql';

// A stored transaction's life after signing: broadcast, mined (or taken out by a reorg), final, replaced for
// its fee, and the sender's nonce resynchronised when the node's count moved past it.

export async function markBroadcast(db: Db, ids: string | string[]): Promise<void> {
  const knex = knexOf(db);
  const list = Array.isArray(ids) ? ids : [ids];
  if (list.length) await knex('chain_transactions').whereIn('id', list).update({ broadcast_at: knex.fn.now() });
}

/** `reverted`: what its receipt says (null: no receipt seen yet; the budget of reverts counts it as in flight). */
export async function markMined(
  db: Db,
  id: string,
  minedHash: string,
  blockNumber: bigint,
  blockHash: string,
  reverted: boolean | null,
): Promise<void> {
  const knex = knexOf(db);
  await knex('chain_transactions')
    .where({ id })
    .whereIn('status', TX_OPEN)
    .update({
      status: 'mined',
      receipt_reverted: reverted,
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

/**
 * Final: confirmed or reverted at the confirmation depth; dropped when its nonce went to another transaction. A
 * reverted collect or direct transaction records what caused it (`revertCause`: the budget of reverts counts `payer`).
 */
export async function finish(
  db: Db,
  id: string,
  status: 'confirmed' | 'reverted' | 'dropped',
  mined?: { transactionHash: string; blockNumber: bigint; blockHash: string },
  revertCause?: RevertCause,
): Promise<boolean> {
  const knex = knexOf(db);
  const n = await knex('chain_transactions')
    .where({ id })
    .whereIn('status', TX_OPEN)
    .update({
      status,
      finished_at: knex.fn.now(),
      ...(revertCause ? { revert_cause: revertCause } : {}),
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

/**
 * Confirmed at depth, several at once (one statement); the ids that were still open, i.e. that this call
 * made final (a concurrent monitor pass may have finished the others).
 */
export async function finishConfirmed(
  db: Db,
  mined: { id: string; transactionHash: string; blockNumber: bigint; blockHash: string }[],
): Promise<Set<string>> {
  const knex = knexOf(db);
  if (!mined.length) return new Set();
  const { rows } = await knex.raw(
    `UPDATE chain_transactions c SET status = 'confirmed', finished_at = now(), block_number = v.block_number::bigint,
       block_hash = v.block_hash, tx_hash = v.tx_hash, previous_hashes = array_remove(array_append(c.previous_hashes, c.tx_hash), v.tx_hash)
     FROM (VALUES ${mined.map(() => '(?, ?, ?, ?)').join(', ')}) AS v(id, tx_hash, block_number, block_hash)
     WHERE c.id = v.id::bigint AND ${inSet('c.status', TX_OPEN)} RETURNING c.id`,
    mined.flatMap((m) => [m.id, m.transactionHash, m.blockNumber.toString(), m.blockHash]),
  );
  return new Set(rows.map((r: Row) => String(r.id)));
}

/**
 * A replacement at the same nonce with higher fees (counted), or with `cancel` the 0-value transfer to the sender that
 * takes the nonce back: the old hash stays known (either may be mined).
 */
export async function replace(
  db: Db,
  id: string,
  signed: { raw: string; hash: string },
  fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
  cancel?: { to: string; calldata: string; gasLimit: bigint },
): Promise<void> {
  const knex = knexOf(db);
  await knex('chain_transactions')
    .where({ id, status: 'pending' })
    .update({
      raw_tx: signed.raw,
      tx_hash: signed.hash,
      previous_hashes: knex.raw('array_append(previous_hashes, tx_hash)'),
      max_fee_per_gas: fees.maxFeePerGas.toString(),
      max_priority_fee_per_gas: fees.maxPriorityFeePerGas.toString(),
      signed_at: knex.fn.now(),
      broadcast_at: null,
      fee_bumps: knex.raw('fee_bumps + 1'),
      fee_limited_at: null,
      ...(cancel
        ? {
            cancelled_at: knex.fn.now(),
            to_address: cancel.to,
            calldata: cancel.calldata,
            value: '0', // a cancellation never carries value
            gas_limit: cancel.gasLimit.toString(),
          }
        : {}),
    });
}

/** The network asks more than the transaction may offer (`limited`), or no longer does. */
export async function markFeeLimited(db: Db, id: string, limited: boolean): Promise<void> {
  const knex = knexOf(db);
  await knex('chain_transactions')
    .where({ id })
    .whereIn('status', TX_OPEN)
    .update({ fee_limited_at: limited ? knex.fn.now() : null });
}

/** After a transaction lost its nonce to another: continue from the node's count. */
export async function resyncNonce(db: Db, chainId: string, sender: string, chainNonce: number): Promise<void> {
  const knex = knexOf(db);
  await knex('relayer_nonces')
    .where({ chain_id: chainId, sender })
    .update({ next_nonce: knex.raw('greatest(next_nonce, ?)', [chainNonce]) });
}

/**
 * The payment's last reverted submission was outbid: another transaction used its authorization and paid this payment
 * (src/usecases/relayer/paymentSteps.ts, usedElsewhere). Unless the token caused that revert, it is not the payer's.
 */
export async function markOutbid(db: Db, paymentId: string): Promise<void> {
  const knex = knexOf(db);
  await knex.raw(
    `UPDATE chain_transactions SET revert_cause = 'outbid' WHERE id = (SELECT max(id) FROM chain_transactions
       WHERE payment_id = ? AND ${inSet('purpose', PAYING_PURPOSES)} AND status = 'reverted') AND revert_cause = 'payer'`,
    [paymentId],
  );
}
