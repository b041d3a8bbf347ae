import { getAddress } from 'viem';
import type { Db, Tx } from '../../db/knex';
import * as ledger from '../../db/ledger';
import { waitingRefund } from '../../db/refundsRepo';
import type { ChainTx } from '../../db/relayer';
import { collectedEntries, move, nativeAsset, OPERATOR, reserveShare, WORLD, type Entry, type Journal } from '../../domain/ledger';
import { settlementSplit } from '../../domain/money';
import { decodeCursor, encodeCursor } from '../../domain/cursor';
import { AppError } from '../../domain/errors';
import { isNativeAsset } from '../../domain/caip';

// What the relayer's steps record in the ledger (docs/ledger.md), each in the database transaction of the state
// change it belongs to. Collector mode only for tokens and the chain's own coin (docs/native.md): in direct mode the
// buyer pays the merchant straight, and only the relayer's gas is recorded.

interface Mined {
  transactionHash: string;
  blockNumber: bigint;
}

const onChain = (tx: Pick<ChainTx, 'id' | 'chainId'>, m: Mined) => ({
  chainTxId: tx.id,
  chainId: tx.chainId,
  txHash: m.transactionHash,
  blockNumber: m.blockNumber,
});

/** A collect transaction mined, not yet at confirmation depth: the buyer's tokens are the account's, pending. */
export async function recordCollectMined(trx: Tx, tx: ChainTx, m: Mined): Promise<void> {
  if (tx.purpose !== 'collect' || !tx.paymentId) return;
  const open = await ledger.openPendings(trx, tx.id);
  if (open.some((o) => o.blockNumber === m.blockNumber)) return;
  await recordCollectUnmined(trx, tx);
  const c = await ledger.collectInput(trx, tx.paymentId);
  if (!c?.collected) return;
  const n = await ledger.pendingCount(trx, tx.id);
  const holder = getAddress(tx.sender);
  const entries = move(c.asset, c.tokenAmount, external, { owner: c.accountId, bucket: 'pending', holder });
  await ledger.postJournals(trx, [
    {
      ref: `collect_pending:${tx.id}:${n}`,
      kind: 'collect_pending',
      accountId: c.accountId,
      paymentId: tx.paymentId,
      ...onChain(tx, m),
      entries,
    },
  ]);
}

const external = { owner: WORLD, bucket: 'external' as const, holder: null };

/** A reorg took the collect transaction out (or it is final now): its pending journals are reversed. */
export async function recordCollectUnmined(trx: Tx, tx: Pick<ChainTx, 'id' | 'chainId' | 'paymentId'>): Promise<void> {
  for (const o of await ledger.openPendings(trx, tx.id)) {
    const entries = (await ledger.journalEntries(trx, o.ref)).map((e) => ({ ...e, amount: -e.amount }));
    await ledger.postJournals(trx, [
      {
        ref: `un${o.ref}`,
        kind: 'collect_unpending',
        paymentId: tx.paymentId,
        chainTxId: tx.id,
        chainId: tx.chainId,
        blockNumber: o.blockNumber,
        entries,
      },
    ]);
  }
}

/**
 * A payment succeeded in collector mode: the buyer's tokens, final, split into the account's available share and the
 * operator's fee, held by the collector. `tx`: the relayer's collect transaction (null when another used the
 * authorization).
 */
export async function recordCollected(
  trx: Tx,
  paymentId: string,
  m: Mined,
  tx: Pick<ChainTx, 'id' | 'chainId'> | null,
  reserveDefaults: { bps: number; windowMinutes: number },
): Promise<void> {
  const c = await ledger.collectInput(trx, paymentId);
  if (!c?.collected || !c.collector) return;
  if (tx) await recordCollectUnmined(trx, { ...tx, paymentId });
  const { fee } = settlementSplit(c.tokenAmount, c.currency, c.decimals, c, isNativeAsset(c.asset) ? c.amountMinor : undefined);
  // A refund's funding is earmarked for its refund while that refund waits (read under the refund's row lock, which
  // its final state change takes too: funding is never earmarked for a refund whose leftovers were released), and only
  // when it is in the refund's token: the refund sends that token, from that token's balance. Paid in another asset
  // (the gateway offers the refund's token only; any other path), it is the account's available balance of what was
  // paid, like a funding paid after its refund is final.
  const earmarked = c.fundsRefund !== null && c.asset === c.fundsRefundAsset;
  const refundId = earmarked && (await waitingRefund(trx, c.fundsRefund!)) ? c.fundsRefund : null;
  // The refund reserve (the account's terms, else the operator's): part of the merchant's share held for refunds until
  // the window ends. A refund's funding is the account's own money, never reserved.
  const bps = c.reserveBps ?? reserveDefaults.bps;
  const windowMinutes = c.reserveWindowMinutes ?? reserveDefaults.windowMinutes;
  const reserve = c.fundsRefund === null && windowMinutes > 0 ? reserveShare(c.tokenAmount - fee, bps) : 0n;
  const collector = getAddress(c.collector);
  const entries = collectedEntries(
    { accountId: c.accountId, asset: c.asset, collector, amount: c.tokenAmount, fee, reserve, bucket: refundId ? 'funding' : 'available' },
    false,
  );
  const where = tx ? onChain(tx, m) : { txHash: m.transactionHash, blockNumber: m.blockNumber };
  const posted = await ledger.postJournals(trx, [
    { ref: `collected:${paymentId}`, kind: 'collected', accountId: c.accountId, paymentId, refundId, ...where, entries },
  ]);
  if (reserve > 0n && posted.size)
    await ledger.insertReserve(trx, {
      paymentId,
      accountId: c.accountId,
      asset: c.asset,
      holder: collector,
      amount: reserve,
      windowMinutes,
    });
}

/**
 * A refund is final: what is left of its funding goes to the account's available balance (in the same transaction),
 * each asset as itself: funding recorded in another asset than the refund's token is never moved in the refund's.
 */
export async function releaseRefundFunding(trx: Tx, refund: { id: string; accountId: string; paymentId: string }) {
  const entries = (await ledger.refundFunding(trx, refund.id)).flatMap((f) =>
    move(
      f.asset,
      f.amount,
      { owner: refund.accountId, bucket: 'funding', holder: f.holder },
      { owner: refund.accountId, bucket: 'available', holder: f.holder },
    ),
  );
  await ledger.postJournals(trx, [
    {
      ref: `funding_released:${refund.id}`,
      kind: 'funding_released',
      accountId: refund.accountId,
      paymentId: refund.paymentId,
      refundId: refund.id,
      entries,
    },
  ]);
}

/**
 * Funds reserved for a transfer out of a collector (a settlement or a refund) as it is stored signed: a refund's own
 * funding there first (`fromFunding`), the rest from the account's available balance. A scheduled batch's: one
 * journal per payment's share (ref suffixed with the payment), so that each names its payment.
 */
export function reserveJournals(
  kind: 'settle_reserved' | 'refund_reserved',
  tx: ChainTx,
  r: Reservation,
  fromFunding = 0n,
  fromReserve: ledger.ReserveDraw[] = [],
): Journal[] {
  const holder = getAddress(tx.sender);
  const reserved = { owner: r.accountId, bucket: 'reserved' as const, holder };
  const available = { owner: r.accountId, bucket: 'available' as const, holder };
  const reserve = { owner: r.accountId, bucket: 'reserve' as const, holder };
  const drawn = fromReserve.reduce((n, d) => n + d.amount, 0n);
  const journal = (share: string | null, entries: Entry[]): Journal => ({
    ref: `${kind}:${tx.id}${share ? `:${share}` : ''}`,
    kind,
    accountId: r.accountId,
    paymentId: share ?? tx.paymentId,
    refundId: r.refundId ?? null,
    chainTxId: tx.id,
    chainId: tx.chainId,
    entries,
  });
  if (r.shares) return r.shares.map((s) => journal(s.paymentId, move(r.asset, s.amount, r.fromReserve ? reserve : available, reserved)));
  return [
    journal(null, [
      ...move(r.asset, fromFunding, { owner: r.accountId, bucket: 'funding', holder }, reserved),
      ...move(r.asset, r.amount - fromFunding - drawn, available, reserved),
    ]),
    // A refund's draw on the reserve: a journal per payment whose reserve it takes, naming that payment.
    ...fromReserve.map((d) => journal(d.paymentId, move(r.asset, d.amount, reserve, reserved))),
  ];
}

export interface Reservation {
  kind: 'settle_reserved' | 'refund_reserved';
  accountId: string;
  asset: string;
  amount: bigint;
  /** A refund's transfer: the refund, whose funding it may spend. */
  refundId?: string;
  /** A scheduled batch's transfer: each payment's share of `amount` (they add up to it). */
  shares?: { paymentId: string; amount: bigint }[];
  /** A reserve release: the shares are what is left of each payment's reserve, spent from `reserve`. */
  fromReserve?: boolean;
}

/** An account has less available at a collector than a transfer out of it needs: nothing of the batch is stored. */
export class InsufficientBalance extends Error {}

/**
 * Reserves what transfers stored signed will send, each from its account's available balance at the sender. Runs
 * under the sender's nonce lock (src/usecases/relayer/submissions.ts), which every transfer out of that address
 * takes: two reservations against the same balance never both pass.
 */
export async function reserveFunds(trx: Tx, list: (Reservation & { tx: ChainTx })[]): Promise<void> {
  // One after another, each journal posted before the next is checked: a batch's transfers never together spend
  // more than there is. A transfer for a payment (its settlement or a refund) may spend that payment's own share and
  // what is free, never what the account owes its other payments' settlements still due (src/db/ledger/reads.ts).
  for (const r of list) {
    const holder = getAddress(r.tx.sender);
    if (r.fromReserve) {
      for (const sh of r.shares ?? [])
        if ((await ledger.reserveLeft(trx, sh.paymentId)) < sh.amount)
          throw new InsufficientBalance(`the reserve of ${sh.paymentId} holds less than the ${sh.amount} its release sends`);
      await ledger.postJournals(trx, reserveJournals(r.kind, r.tx, r));
      continue;
    }
    const { amount: spendable, funding } = r.tx.paymentId
      ? ((await ledger.availableForPayment(trx, r.accountId, r.asset, r.tx.paymentId, { holder, refundId: r.refundId }))[0] ?? {
          amount: 0n,
          funding: 0n,
        })
      : { amount: await ledger.availableAt(trx, r.accountId, r.asset, holder), funding: 0n };
    // A refund short of what the account may spend here draws the rest on its refund reserve here (its own payment's
    // first), while the reserve's window is open; a settlement never does.
    const draws: ledger.ReserveDraw[] = [];
    if (r.kind === 'refund_reserved' && r.tx.paymentId && spendable < r.amount) {
      let short = r.amount - spendable;
      for (const d of await ledger.drawableReserves(trx, r.accountId, r.asset, r.tx.paymentId, holder)) {
        if (short === 0n) break;
        const take = d.amount < short ? d.amount : short;
        draws.push({ ...d, amount: take });
        short -= take;
      }
    }
    const drawn = draws.reduce((n, d) => n + d.amount, 0n);
    if (spendable + drawn < r.amount)
      throw new InsufficientBalance(`${r.accountId} may spend ${spendable + drawn} of ${r.asset} at ${holder}, ${r.amount} needed`);
    await ledger.postJournals(trx, reserveJournals(r.kind, r.tx, r, funding < r.amount - drawn ? funding : r.amount - drawn, draws));
  }
}

/** What the ledger knows of an account's money at a collector: the available balance, and whether a payment's collection is recorded. */
export const spendableFor = async (db: Db, accountId: string, asset: string, paymentId: string, holder: string) =>
  (await ledger.availableForPayment(db, accountId, asset, paymentId, { holder }))[0]?.amount ?? 0n;
export const collectionRecorded = (db: Db, paymentId: string) => ledger.hasJournal(db, `collected:${paymentId}`);

/**
 * The transfer reserved for is final: what was reserved leaves for the world (sent) or goes back (released). A
 * scheduled batch's `shares` (its payments): one journal per payment's reservation.
 */
export async function recordTransferOutcome(
  trx: Tx,
  kind: 'settle' | 'refund',
  tx: ChainTx,
  outcome: { sent: Mined } | { released: Mined | null },
  shares: string[] = [],
): Promise<void> {
  const sent = 'sent' in outcome;
  const m = sent ? outcome.sent : outcome.released;
  const journalKind = sent ? (kind === 'settle' ? 'settled' : 'refunded') : (`${kind}_released` as const);
  const journals: Journal[] = [];
  // (A batch stored before its shares had journals of their own has the one journal without a suffix.) A refund's
  // draws on the reserve are journals of their own too, each suffixed with the payment whose reserve it took.
  const drawn = kind === 'refund' ? await ledger.suffixedJournals(trx, `${kind}_reserved:${tx.id}`) : [];
  for (const share of [null, ...new Set([...shares, ...drawn])]) {
    const suffix = share ? `:${share}` : '';
    const reserved = await ledger.journalEntries(trx, `${kind}_reserved:${tx.id}${suffix}`);
    const held = reserved.filter((e) => e.bucket === 'reserved');
    if (!held.length) continue;
    journals.push({
      ref: `${journalKind}:${tx.id}${suffix}`,
      kind: journalKind,
      accountId: held[0].owner,
      paymentId: share ?? tx.paymentId,
      // The refund its reservation named: every journal of a refund's transaction names it, a dropped one's included.
      refundId: kind === 'refund' ? await ledger.journalRefund(trx, `${kind}_reserved:${tx.id}${suffix}`) : null,
      chainTxId: tx.id,
      chainId: tx.chainId,
      txHash: m?.transactionHash ?? null,
      blockNumber: sent ? m!.blockNumber : null,
      // Released, the reservation is reversed: a refund's funding goes back to that refund, the rest to available.
      entries: sent ? held.flatMap((e) => move(e.asset, e.amount, e, external)) : reserved.map((e) => ({ ...e, amount: -e.amount })),
    });
  }
  await ledger.postJournals(trx, journals);
}

/** Gas a relayer key paid for a mined transaction (any purpose), in the chain's native coin. */
export function gasJournal(
  tx: Pick<ChainTx, 'id' | 'chainId' | 'sender' | 'paymentId'>,
  r: Mined & { gasUsed: bigint; effectiveGasPrice: bigint },
): Journal {
  const holder = getAddress(tx.sender);
  return {
    ref: `gas:${tx.chainId}:${r.transactionHash}`,
    kind: 'gas',
    paymentId: tx.paymentId,
    ...onChain(tx, r),
    entries: move(
      nativeAsset(tx.chainId),
      r.gasUsed * r.effectiveGasPrice,
      { owner: OPERATOR, bucket: 'native', holder },
      { owner: OPERATOR, bucket: 'gas', holder },
    ),
  };
}

export const recordGas = (trx: Tx, list: Parameters<typeof gasJournal>[]) =>
  ledger.postJournals(
    trx,
    list.map((a) => gasJournal(...a)),
  );

/** An account's balances, amounts as strings (the wire's and the admin command's shape). */
export async function balances(db: Db, accountId: string) {
  return {
    balances: (await ledger.accountBalances(db, accountId)).map((b) => ({
      asset: b.asset,
      available: b.available.toString(),
      pending: b.pending.toString(),
      reserved: b.reserved.toString(),
      reserve: b.reserve.toString(),
    })),
  };
}

// An entry id is a PostgreSQL bigint: a larger one would make the query fail.
const BIGINT_MAX = 2n ** 63n - 1n;
const isAfter = (v: unknown): v is { id: string } => {
  const id = typeof v === 'object' && v !== null ? (v as { id: unknown }).id : undefined;
  return typeof id === 'string' && /^[0-9]{1,19}$/.test(id) && BigInt(id) <= BIGINT_MAX;
};

/** The account's balance transactions (one per ledger entry) between `from` (inclusive) and `to`, a page at a time. */
export async function balanceTransactions(db: Db, accountId: string, range: { from: string; to: string }, limit: number, cursor?: string) {
  const from = new Date(range.from);
  const to = new Date(range.to);
  const issues = [
    ...(Number.isNaN(from.getTime()) ? [{ field: 'from', message: 'must be a date-time' }] : []),
    ...(Number.isNaN(to.getTime()) ? [{ field: 'to', message: 'must be a date-time' }] : []),
  ];
  const after = cursor === undefined ? undefined : decodeCursor(cursor, isAfter);
  if (after === null) issues.push({ field: 'cursor', message: 'is not a cursor of this list' });
  if (issues.length) throw new AppError('params_validation', undefined, issues);
  const rows = await ledger.balanceTransactions(db, accountId, { from, to }, limit + 1, after?.id);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { data: page, nextCursor: rows.length > limit && last ? encodeCursor({ id: last.id }) : null };
}
