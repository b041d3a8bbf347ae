import { Db, knexOf } from '../knex';
import { availableForPayment } from './reads';
import { inSet, refundedSql } from '../stateSql';
import { TX_OPEN } from '../../domain/chainTx';

// The refund reserve (docs/ledger.md "Refund reserve"; migration 20261227090200): the share of a collected payment
// held in the account's `reserve` bucket at its collector until `release_at`. What is left of a payment's reserve is
// the sum of the `reserve` entries of the journals naming the payment: its collection (+), refunds' draws on it (−),
// its release's reservation (−, given back when that transfer reverts or is dropped).

type Row = Record<string, any>;

/**
 * SQL: the release settles the payment aliased `p`: it is not settled and no settlement of its own goes out, because
 * its collection reserved the whole share (nothing went to `available`) or its refunds (not failed) add up to at
 * least what did: its own settlement sends what went to `available` less what was refunded
 * (src/usecases/relayer/paymentSteps.ts, settlePayment), nothing then. Otherwise its own settlement settles it.
 */
const SETTLES = (p: string) => `(${p}.settled_at IS NULL
  AND (SELECT coalesce(sum(ce.amount), 0) FROM ledger_journals cj JOIN ledger_entries ce ON ce.journal_id = cj.id
       WHERE cj.ref = 'collected:' || ${p}.id AND ce.bucket = 'available')
   <= ${refundedSql(`${p}.id`, 'token_amount')})`;

/** SQL: what is left of the reserve of the refund_reserves row aliased `r`. */
const LEFT = (r: string) => `(SELECT coalesce(sum(x.amount), 0) FROM ledger_journals k JOIN ledger_entries x ON x.journal_id = k.id
  WHERE k.payment_id = ${r}.payment_id AND x.owner = ${r}.account_id AND x.bucket = 'reserve' AND x.asset = ${r}.asset
    AND x.holder = ${r}.holder)`;

/** A collected payment's reserve share, held until `windowMinutes` from now by the database's clock. */
export async function insertReserve(
  db: Db,
  r: { paymentId: string; accountId: string; asset: string; holder: string; amount: bigint; windowMinutes: number },
): Promise<void> {
  await knexOf(db).raw(
    `INSERT INTO refund_reserves (payment_id, account_id, asset, holder, amount, release_at)
     VALUES (?, ?, ?, ?, ?, now() + make_interval(mins => ?)) ON CONFLICT (payment_id) DO NOTHING`,
    [r.paymentId, r.accountId, r.asset, r.holder, r.amount.toString(), r.windowMinutes],
  );
}

export interface ReserveDraw {
  /** The payment whose reserve it is. */
  paymentId: string;
  holder: string;
  amount: bigint;
}

/**
 * What refunds may draw on of an account's reserve of an asset: the reserves whose window is still open (not due for
 * release), with what is left of each, per holder; the reserve of `paymentId` (the refunded payment) first, then the
 * ones released soonest. `holder`: at one address only.
 */
export async function drawableReserves(
  db: Db,
  accountId: string,
  asset: string,
  paymentId: string,
  holder?: string,
): Promise<ReserveDraw[]> {
  const { rows } = await knexOf(db).raw(
    `SELECT * FROM (SELECT r.payment_id, r.holder, r.release_at, ${LEFT('r')} AS n FROM refund_reserves r
       WHERE r.account_id = :account AND r.asset = :asset AND r.released_at IS NULL AND r.release_tx_id IS NULL
         AND r.release_at > now() AND (CAST(:holder AS text) IS NULL OR r.holder = :holder)) d
     WHERE d.n > 0 ORDER BY d.holder, d.payment_id = :payment DESC, d.release_at, d.payment_id`,
    { account: accountId, asset, payment: paymentId, holder: holder ?? null },
  );
  return rows.map((r: Row) => ({ paymentId: r.payment_id, holder: r.holder, amount: BigInt(r.n) }));
}

/** The reserve share a payment's collection held back (0: none). */
export async function reserveAmount(db: Db, paymentId: string): Promise<bigint> {
  const r = await knexOf(db)('refund_reserves').where({ payment_id: paymentId }).first('amount');
  return r ? BigInt(r.amount) : 0n;
}

/** What is left of one payment's reserve. */
export async function reserveLeft(db: Db, paymentId: string): Promise<bigint> {
  const { rows } = await knexOf(db).raw(`SELECT ${LEFT('r')} AS n FROM refund_reserves r WHERE r.payment_id = ?`, [paymentId]);
  return rows[0] ? BigInt(rows[0].n) : 0n;
}

/**
 * What a refund of `paymentId` may spend per holder, largest first: the account's available balance there less what
 * it owes its other payments, the refund's own funding (`funding`), and the reserves it may draw on (`reserve`).
 */
export async function refundableByHolder(
  db: Db,
  accountId: string,
  asset: string,
  paymentId: string,
  only: { holder?: string; refundId?: string } = {},
): Promise<{ holder: string; amount: bigint; funding: bigint; reserve: bigint }[]> {
  const out = new Map<string, { holder: string; amount: bigint; funding: bigint; reserve: bigint }>();
  for (const a of await availableForPayment(db, accountId, asset, paymentId, only)) out.set(a.holder, { ...a, reserve: 0n });
  for (const d of await drawableReserves(db, accountId, asset, paymentId, only.holder)) {
    const h = out.get(d.holder) ?? { holder: d.holder, amount: 0n, funding: 0n, reserve: 0n };
    out.set(d.holder, { ...h, amount: h.amount + d.amount, reserve: h.reserve + d.amount });
  }
  return [...out.values()].sort((x, y) => (x.amount === y.amount ? (x.holder < y.holder ? -1 : 1) : x.amount > y.amount ? -1 : 1));
}

export interface DueRelease {
  accountId: string;
  merchantId: string;
  asset: string;
  chainId: string;
  collector: string;
  destination: string;
  /** `settles`: the release is the payment's settlement (its whole share was reserved). */
  members: { paymentId: string; amount: bigint; settles: boolean; fee: bigint }[];
}

/**
 * The reserves whose window has ended and that no transfer releases yet, per merchant, asset and collector, with what
 * is left of each and the merchant's destination for the asset now; not one a refund transaction not final yet drew
 * on (what it drew comes back if that transaction fails). A reserve with nothing left (refunds took it all) is marked
 * released here, as nothing is to be sent for it.
 */
export async function dueReleases(db: Db): Promise<{ due: DueRelease[]; emptied: { paymentId: string; settles: boolean }[] }> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `SELECT r.payment_id, r.account_id, p.merchant_id, r.asset, o.chain_id, r.holder, cs.destination, ${SETTLES('p')} AS settles,
       ${LEFT('r')} AS n, (SELECT coalesce(sum(f.amount), 0) FROM ledger_journals j JOIN ledger_entries f ON f.journal_id = j.id
         WHERE j.ref = 'collected:' || r.payment_id AND f.owner = 'operator' AND f.bucket = 'fees') AS fee
     FROM refund_reserves r JOIN payments p ON p.id = r.payment_id JOIN payment_options o ON o.id = p.option_id
       LEFT JOIN crypto_settlements cs ON cs.merchant_id = p.merchant_id AND cs.asset = r.asset
     WHERE r.released_at IS NULL AND r.release_tx_id IS NULL AND r.release_at <= now()
       -- A refund's draw on it still on its way may come back (its transaction reverts or is dropped): released after it.
       AND NOT EXISTS (SELECT 1 FROM ledger_journals k JOIN chain_transactions c ON c.id = k.chain_tx_id
         WHERE k.payment_id = r.payment_id AND k.kind = 'refund_reserved' AND c.purpose = 'refund' AND ${inSet('c.status', TX_OPEN)})
     ORDER BY p.merchant_id, r.asset, r.holder, r.payment_id LIMIT 500`,
  );
  const empty = rows.filter((r: Row) => BigInt(r.n) <= 0n);
  if (empty.length)
    await knex('refund_reserves')
      .whereIn(
        'payment_id',
        empty.map((r: Row) => r.payment_id),
      )
      .whereNull('release_tx_id')
      .update({ released_at: knex.fn.now() });
  const out = new Map<string, DueRelease>();
  for (const r of rows as Row[]) {
    if (BigInt(r.n) <= 0n || !r.destination) continue;
    const k = `${r.merchant_id}|${r.asset}|${r.holder}`;
    let b = out.get(k);
    if (!b)
      out.set(
        k,
        (b = {
          accountId: r.account_id,
          merchantId: r.merchant_id,
          asset: r.asset,
          chainId: r.chain_id,
          collector: r.holder,
          destination: r.destination,
          members: [],
        }),
      );
    b.members.push({ paymentId: r.payment_id, amount: BigInt(r.n), settles: Boolean(r.settles), fee: BigInt(r.fee) });
  }
  return { due: [...out.values()], emptied: empty.map((r: Row) => ({ paymentId: r.payment_id, settles: Boolean(r.settles) })) };
}

/**
 * Attaches a release transfer to its reserves (in the transaction that stores it signed, under the collector's nonce
 * lock), each still due with the amount read; the payment that changed since (a refund drew on it, another release),
 * if one did: then the caller stores nothing.
 */
export async function attachRelease(db: Db, chainTxId: string, members: { paymentId: string; amount: bigint }[]): Promise<string | null> {
  const knex = knexOf(db);
  const ids = members.map((m) => m.paymentId);
  const { rows } = await knex.raw(
    `SELECT r.payment_id, ${LEFT('r')} AS n FROM refund_reserves r
     WHERE r.payment_id = ANY(?::text[]) AND r.released_at IS NULL AND r.release_tx_id IS NULL ORDER BY r.payment_id FOR UPDATE`,
    [ids],
  );
  const left = new Map(rows.map((r: Row) => [r.payment_id as string, BigInt(r.n)]));
  const changed = members.find((m) => left.get(m.paymentId) !== m.amount);
  if (changed) return changed.paymentId;
  await knex('refund_reserves').whereIn('payment_id', ids).update({ release_tx_id: chainTxId });
  return null;
}

/** The payments whose reserves a transaction releases (none for any other transaction). */
export async function releasePayments(db: Db, chainTxId: string): Promise<{ paymentId: string; settles: boolean }[]> {
  const rows = await knexOf(db)('refund_reserves as r')
    .join('payments as p', 'p.id', 'r.payment_id')
    .where('r.release_tx_id', chainTxId)
    .orderBy('r.payment_id')
    .select('r.payment_id', knexOf(db).raw(`${SETTLES('p')} AS settles`));
  return rows.map((r: Row) => ({ paymentId: r.payment_id, settles: Boolean(r.settles) }));
}

/** The release transfer is final: sent, its reserves are released; reverted or dropped, they are due again. */
export async function releaseOutcome(db: Db, chainTxId: string, sent: boolean): Promise<void> {
  const knex = knexOf(db);
  await knex('refund_reserves')
    .where({ release_tx_id: chainTxId })
    .update(sent ? { released_at: knex.fn.now() } : { release_tx_id: null });
}
