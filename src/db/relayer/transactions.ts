import { asTx, Db, knexOf, Tx } from '../knex';
import { PAYING_PURPOSES, TX_GONE, TX_OPEN, type TxPurpose, type TxStatus } from '../../domain/chainTx';
import { inSet, sqlList } from '../stateSql';

// The relayer's transactions as stored: their shape, storing signed ones under the sender's next nonce, and
// the reads that submitting and re-broadcasting need.

export type { TxPurpose, TxStatus } from '../../domain/chainTx';
/**
 * What the chain proves caused a reverted collect or direct transaction: the token (it refused the transfer at that
 * block: src/chain/tokenRefusal.ts), another transaction that used the authorization and paid the payment (`outbid`),
 * congestion (mined past the authorization's deadline although it left time when sent, or its nonce being taken back:
 * src/usecases/relayer/revertCause.ts), or, without such proof, the payer (its wallet or balance): the budget of reverts
 * counts only these.
 */
export type { RevertCause } from '../../domain/chainTx';
/** SQL: the chain transaction aliased `alias` still stands (it is not TX_GONE: it may have moved tokens). */
export const standing = (alias: string) => `${alias}.status NOT IN ${sqlList(TX_GONE)}`;
/**
 * SQL: the payment option aliased `o` was paid to the collector (ReceiveWithAuthorization, an x402
 * TransferWithAuthorization whose `to` is the relayer, or a Permit2 permit whose tokens go to the relayer that
 * submits it, or x402 paid to a deposit address, which passes it on to the relayer in the same transaction): a
 * settlement is due.
 */
export const PAID_TO_COLLECTOR = `((o.typed_data::jsonb ->> 'primaryType') = 'ReceiveWithAuthorization' OR o.permit_to = o.relayer
  OR (o.typed_data::jsonb #>> '{message,to}') = o.relayer OR o.deposit_signature IS NOT NULL)`;

/** SQL: the payment aliased `alias` is in a scheduled settlement's batch not released (on its way, or sent). */
export const IN_BATCH = (alias: string) =>
  `EXISTS (SELECT 1 FROM settlement_batch_payments sbp WHERE sbp.payment_id = ${alias}.id AND NOT sbp.released)`;

export interface ChainTx {
  id: string;
  chainId: string;
  sender: string;
  nonce: number;
  purpose: TxPurpose;
  /** Null for a sweep and a settle_batch only (a check constraint says so). */
  paymentId: string | null;
  to: `0x${string}`;
  calldata: `0x${string}`;
  /** Wei it carries (a settlement or refund of the chain's own coin); 0 for every other, a cancellation included. */
  value: bigint;
  gasLimit: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  raw: `0x${string}`;
  hash: `0x${string}`;
  previousHashes: `0x${string}`[];
  status: TxStatus;
  blockNumber: bigint | null;
  blockHash: string | null;
  /** When its first version was signed (a replacement keeps it; `signedAt` is the latest version's). */
  createdAt: Date;
  signedAt: Date;
  broadcastAt: Date | null;
  /** Fee-raising replacements so far (a cancellation included). */
  feeBumps: number;
  /** Since when the network has asked more than this transaction may offer (its bound or the fee ceiling reached). */
  feeLimitedAt: Date | null;
  /** When its nonce was taken back by a 0-value transfer to the sender (the row now describes that transfer). */
  cancelledAt: Date | null;
}

export type Row = Record<string, any>;
const fromRow = (r: Row): ChainTx => ({
  id: String(r.id),
  chainId: r.chain_id,
  sender: r.sender,
  nonce: Number(r.nonce),
  purpose: r.purpose,
  paymentId: r.payment_id,
  to: r.to_address,
  calldata: r.calldata,
  value: BigInt(r.value ?? 0),
  gasLimit: BigInt(r.gas_limit),
  maxFeePerGas: BigInt(r.max_fee_per_gas),
  maxPriorityFeePerGas: BigInt(r.max_priority_fee_per_gas),
  raw: r.raw_tx,
  hash: r.tx_hash,
  previousHashes: r.previous_hashes ?? [],
  status: r.status,
  blockNumber: r.block_number === null ? null : BigInt(r.block_number),
  blockHash: r.block_hash,
  createdAt: r.created_at,
  signedAt: r.signed_at,
  broadcastAt: r.broadcast_at,
  feeBumps: Number(r.fee_bumps),
  feeLimitedAt: r.fee_limited_at,
  cancelledAt: r.cancelled_at,
});

/** A transaction of a payment's step, whose outcome moves the payment; not a sweep or a batch. */
export const ofPayment = <T extends { paymentId: string | null }>(tx: T): tx is T & { paymentId: string } => tx.paymentId !== null;

export type NewTx = Pick<
  ChainTx,
  'chainId' | 'sender' | 'purpose' | 'paymentId' | 'to' | 'calldata' | 'gasLimit' | 'maxFeePerGas' | 'maxPriorityFeePerGas'
> & { value?: bigint };

export interface Authorization {
  chainId: string;
  token: string;
  from: string;
  nonce: string;
}

/** One transaction to sign under the sender's next nonce; with `authorization`, it also claims it. */
export interface NewSubmission {
  tx: NewTx;
  sign(nonce: number): Promise<{ raw: `0x${string}`; hash: `0x${string}` }>;
  authorization?: Authorization;
}

/**
 * What became of a submission: stored signed; not stored because the payment already has a live
 * transaction of this purpose (a duplicate job); refused because another payment claimed its authorization; or
 * (a settlement) not stored because it is held, settled, or waiting before its next attempt.
 */
export type StoreOutcome = { kind: 'stored'; tx: ChainTx } | { kind: 'live' } | { kind: 'taken'; owner: string } | { kind: 'held' };

const authKey = (a: { chain_id: string; token: string; from_address: string; auth_nonce: string }) =>
  `${a.chain_id}|${a.token}|${a.from_address}|${a.auth_nonce}`;
const authRow = (a: Authorization) => ({ chain_id: a.chainId, token: a.token, from_address: a.from, auth_nonce: a.nonce });

/**
 * Takes the sender's next nonces, signs with them and stores the signed transactions, all in one database
 * transaction: one commit for a batch of one sender's submissions, and a crash stores all of them or none
 * (no nonce is ever taken without its signed transaction). `chainNonce` (the node's pending count) is used
 * only the first time a sender is seen. Each authorization is claimed once, ever: one submission per
 * (chain, token, signer, nonce). `inTransaction` runs after the insert, before the commit.
 */
export async function storeSignedTxs(
  db: Db,
  chainId: string,
  sender: string,
  subs: NewSubmission[],
  chainNonce: () => Promise<number>,
  inTransaction?: (trx: Tx, stored: ChainTx[]) => Promise<void>,
): Promise<StoreOutcome[]> {
  const knex = knexOf(db);
  const out: (StoreOutcome | undefined)[] = subs.map(() => undefined);
  const seen = new Set<string>();
  subs.forEach((s, i) => {
    const k = `${s.tx.paymentId}/${s.tx.purpose}`;
    if (ofPayment(s.tx) && seen.has(k)) out[i] = { kind: 'live' }; // the same step twice in one batch: the first one counts
    seen.add(k);
  });
  const open = () => subs.flatMap((_, i) => (out[i] ? [] : [i]));
  return knex.transaction(async (trx) => {
    const claiming = open().filter((i) => subs[i].authorization);
    if (claiming.length) {
      const rows = claiming.map((i) => ({ ...authRow(subs[i].authorization!), payment_id: subs[i].tx.paymentId }));
      await trx('payment_authorizations').insert(rows).onConflict(['chain_id', 'token', 'from_address', 'auth_nonce']).ignore();
      const owners = await trx('payment_authorizations')
        .whereIn(
          ['chain_id', 'token', 'from_address', 'auth_nonce'],
          rows.map((r) => [r.chain_id, r.token, r.from_address, r.auth_nonce]),
        )
        .select('chain_id', 'token', 'from_address', 'auth_nonce', 'payment_id');
      const ownerOf = new Map(owners.map((o) => [authKey(o), o.payment_id as string]));
      for (const [n, i] of claiming.entries()) {
        const owner = ownerOf.get(authKey(rows[n]))!;
        if (owner !== subs[i].tx.paymentId) out[i] = { kind: 'taken', owner };
      }
    }
    // A settlement goes only while it is due, not held and in no scheduled batch, decided under its payment's row lock: a
    // failure recorded meanwhile (which may hold it) waits for this commit, or this waits for it (src/db/settlementTransfersRepo.ts).
    const settling = open().filter((i) => subs[i].tx.purpose === 'settle');
    if (settling.length) {
      const { rows } = await trx.raw(
        `SELECT id, (settled_at IS NOT NULL OR settlement_held_at IS NOT NULL OR coalesce(settlement_next_at > now(), false)
           OR ${IN_BATCH('payments')}) AS blocked
         FROM payments WHERE id = ANY(?::text[]) ORDER BY id FOR NO KEY UPDATE`,
        [settling.map((i) => subs[i].tx.paymentId as string)],
      );
      const blocked = new Set(rows.filter((r: Row) => r.blocked).map((r: Row) => r.id as string));
      for (const i of settling) if (blocked.has(subs[i].tx.paymentId!)) out[i] = { kind: 'held' };
    }
    let want = open();
    if (!want.length) return out as StoreOutcome[];
    // The row lock is taken here (nonces for the whole batch at once) and held to commit: the check for live
    // transactions (a concurrent process may have stored one while this waited), signing, insert and commit.
    const take = () =>
      trx.raw('UPDATE relayer_nonces SET next_nonce = next_nonce + ? WHERE chain_id = ? AND sender = ? RETURNING next_nonce - ? AS nonce', [
        want.length,
        chainId,
        sender,
        want.length,
      ]);
    let taken = (await take()).rows[0];
    if (!taken) {
      const n = await chainNonce();
      await trx('relayer_nonces').insert({ chain_id: chainId, sender, next_nonce: n }).onConflict(['chain_id', 'sender']).ignore();
      taken = (await take()).rows[0];
    }
    const first = Number(taken.nonce);
    const steps = want.filter((i) => ofPayment(subs[i].tx));
    const live = !steps.length
      ? []
      : await trx('chain_transactions')
          .whereIn(
            ['payment_id', 'purpose'],
            steps.map((i) => [subs[i].tx.paymentId, subs[i].tx.purpose]),
          )
          .whereNotIn('status', TX_GONE)
          // A payment may have several refunds that succeeded: only one in flight stands in the way.
          .whereNot((q) => q.where('purpose', 'refund').andWhere('status', 'confirmed'))
          .select('payment_id', 'purpose');
    for (const l of live)
      for (const i of want) if (subs[i].tx.paymentId === l.payment_id && subs[i].tx.purpose === l.purpose) out[i] = { kind: 'live' };
    const allocated = want.length;
    want = open();
    if (want.length < allocated)
      await trx('relayer_nonces')
        .where({ chain_id: chainId, sender })
        .update({ next_nonce: first + want.length }); // nonces stay contiguous: only the ones signed below are taken
    if (!want.length) return out as StoreOutcome[];
    const rows = [];
    for (const [n, i] of want.entries()) {
      const { tx } = subs[i];
      const nonce = first + n;
      const { raw, hash } = await subs[i].sign(nonce);
      rows.push({
        chain_id: chainId,
        sender,
        nonce,
        purpose: tx.purpose,
        payment_id: tx.paymentId,
        to_address: tx.to,
        calldata: tx.calldata,
        value: (tx.value ?? 0n).toString(),
        gas_limit: tx.gasLimit.toString(),
        max_fee_per_gas: tx.maxFeePerGas.toString(),
        max_priority_fee_per_gas: tx.maxPriorityFeePerGas.toString(),
        raw_tx: raw,
        tx_hash: hash,
      });
    }
    const byNonce = new Map((await trx('chain_transactions').insert(rows).returning('*')).map((r: Row) => [Number(r.nonce), fromRow(r)]));
    const stored = want.map((i, n) => {
      const tx = byNonce.get(first + n)!;
      out[i] = { kind: 'stored', tx };
      return tx;
    });
    if (inTransaction) await inTransaction(asTx(trx), stored);
    return out as StoreOutcome[];
  });
}

/** A sender's transactions not yet final on a chain, oldest nonce first (re-broadcast order). */
export async function openTransactions(db: Db, chainId: string, sender: string, limit = 500): Promise<ChainTx[]> {
  const knex = knexOf(db);
  const rows = await knex('chain_transactions')
    .where({ chain_id: chainId, sender })
    .whereIn('status', TX_OPEN)
    .orderBy('nonce')
    .limit(limit);
  return rows.map(fromRow);
}

/**
 * Per sender on a chain, its lowest nonce whose transaction is not final yet: below it, every transaction of the sender
 * is final and recorded (`admin ledger check` asks the chain whether that nonce was used by the block it checks).
 */
export async function lowestOpenNonces(db: Db, chainId: string): Promise<{ sender: string; nonce: bigint }[]> {
  const rows = await knexOf(db)('chain_transactions')
    .where({ chain_id: chainId })
    .whereIn('status', TX_OPEN)
    .groupBy('sender')
    .select('sender')
    .min({ nonce: 'nonce' });
  return rows.map((r: Row) => ({ sender: r.sender as string, nonce: BigInt(r.nonce) }));
}

/** What submitting a confirmed payment needs, in one read: its state, its option and signature, and its live transaction. */
export interface SubmissionInput {
  status: string;
  signature: string | null;
  chainId: string | null;
  typedData: string | null;
  relayer: string | null;
  /** The option's buyer account (CAIP-10), and where a Permit2 permit's tokens go (null for EIP-3009). */
  account: string | null;
  permitTo: string | null;
  /** x402 paid to a deposit address: its onward authorization's signature (src/domain/x402Deposit.ts); else null. */
  depositSignature: string | null;
  /** The hash of the payment's collect or direct transaction that is not dropped, if there is one. */
  liveHash: `0x${string}` | null;
}

export async function submissionInput(db: Db, paymentId: string): Promise<SubmissionInput | undefined> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `SELECT p.status, p.signature, o.chain_id, o.typed_data, o.relayer, o.account, o.permit_to, o.deposit_signature,
       (SELECT c.tx_hash FROM chain_transactions c WHERE c.payment_id = p.id AND ${inSet('c.purpose', PAYING_PURPOSES)} AND ${standing('c')}
        LIMIT 1) AS live_hash
     FROM payments p LEFT JOIN payment_options o ON o.id = p.option_id WHERE p.id = ?`,
    [paymentId],
  );
  const r = rows[0];
  return (
    r && {
      status: r.status,
      signature: r.signature,
      chainId: r.chain_id,
      typedData: r.typed_data,
      relayer: r.relayer ?? null,
      account: r.account ?? null,
      permitTo: r.permit_to ?? null,
      depositSignature: r.deposit_signature ?? null,
      liveHash: r.live_hash,
    }
  );
}

export async function liveTransaction(db: Db, paymentId: string, purpose: TxPurpose): Promise<ChainTx | undefined> {
  const knex = knexOf(db);
  const r = await knex('chain_transactions').where({ payment_id: paymentId, purpose }).whereNotIn('status', TX_GONE).first();
  return r && fromRow(r);
}
