import type { Balance } from '../../domain/ledger';
import { Db, knexOf } from '../knex';
import { IN_BATCH, PAID_TO_COLLECTOR, standing } from '../relayer';
import { REFUND_OPEN } from '../../domain/refund';
import { inSet } from '../stateSql';

// What the ledger says: an account's balances, and what each collector holds at a block (for `admin ledger check`).

type Row = Record<string, any>;

/**
 * An account's balances per asset, from its entries: available, pending, reserved (a refund's funding included) and
 * its refund reserve.
 */
export async function accountBalances(db: Db, accountId: string): Promise<Balance[]> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `SELECT asset,
       coalesce(sum(amount) FILTER (WHERE bucket = 'available'), 0) AS available,
       coalesce(sum(amount) FILTER (WHERE bucket = 'pending'), 0) AS pending,
       coalesce(sum(amount) FILTER (WHERE bucket IN ('reserved', 'funding')), 0) AS reserved,
       coalesce(sum(amount) FILTER (WHERE bucket = 'reserve'), 0) AS reserve
     FROM ledger_entries WHERE owner = ? GROUP BY asset ORDER BY asset`,
    [accountId],
  );
  return rows.map((r: Row) => ({
    asset: r.asset,
    available: BigInt(r.available),
    pending: BigInt(r.pending),
    reserved: BigInt(r.reserved),
    reserve: BigInt(r.reserve),
  }));
}

/** An account's available balance of an asset held at one address. */
export async function availableAt(db: Db, accountId: string, asset: string, holder: string): Promise<bigint> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `SELECT coalesce(sum(amount), 0) AS n FROM ledger_entries WHERE owner = ? AND asset = ? AND holder = ? AND bucket = 'available'`,
    [accountId, asset, holder],
  );
  return BigInt(rows[0].n);
}

/**
 * A refund's funding not spent yet, per holder: the `funding` entries of the journals that name the refund, in the
 * refund's own token only. A funding payment paid in another asset (a door that let it, or data from before the
 * crediting checked the asset) is no funding of the refund: the refund sends its token, and summing amounts of two
 * assets would spend tokens of other accounts pooled at the collector.
 */
const EARMARK = `SELECT e.holder, sum(e.amount) AS n FROM ledger_journals j JOIN ledger_entries e ON e.journal_id = j.id
  WHERE j.refund_id = :refund AND e.bucket = 'funding'
    AND e.asset = (SELECT r.token_asset FROM refunds r WHERE r.id = :refund) GROUP BY e.holder`;

/**
 * A refund whose amount left the account's available balance: reserved by its transaction (pending, mined or
 * confirmed; a dropped one's reservation was released), or sent. One waiting (`requires_funding`, `pending` not yet
 * stored) may still fail or be sent from elsewhere: until it reserves, its payment's share stays owed in full.
 */
const REFUND_RESERVED = (r: string) => `(${r}.status = 'succeeded' OR EXISTS (SELECT 1 FROM chain_transactions c
  WHERE c.id = ${r}.chain_tx_id AND c.purpose = 'refund' AND ${standing('c')}))`;

/** SQL: the settlement of the payment aliased `p` left the collector (settled, or its transfer on its way, alone or in a batch). */
const SETTLEMENT_GONE = (p: string) => `(${p}.settled_at IS NOT NULL OR EXISTS (SELECT 1 FROM chain_transactions c
  WHERE c.payment_id = ${p}.id AND c.purpose = 'settle' AND ${standing('c')}) OR ${IN_BATCH(p)})`;

/** SQL: the tokens of the waiting refunds (not reserved yet) of the payment aliased `p`. */
const WAITING_REFUNDS = (p: string) => `(SELECT coalesce(sum(r.token_amount), 0) FROM refunds r WHERE r.payment_id = ${p}.id
  AND ${inSet('r.status', REFUND_OPEN)} AND NOT ${REFUND_RESERVED('r')})`;

/**
 * SQL: what is left at the holder of entry `e` of the collected share of the payment aliased `p`, after the
 * transfers for that payment (its settlement, its refunds) took their part of the account's available balance there.
 */
const SHARE_LEFT = (p: string, e: string) => `(${e}.amount + (SELECT coalesce(sum(x.amount), 0) FROM ledger_journals k
  JOIN ledger_entries x ON x.journal_id = k.id WHERE k.payment_id = ${p}.id
    AND k.kind IN ('settle_reserved', 'settle_released', 'refund_reserved', 'refund_released')
    AND x.owner = ${e}.owner AND x.bucket = 'available' AND x.asset = ${e}.asset AND x.holder = ${e}.holder))`;

/**
 * What a transfer for `paymentId` (its settlement or a refund) may spend of an account's balance of an asset, per
 * holder, largest first: the available balance less what is owed to the account's other collected payments, plus,
 * for refund `refundId`, its own funding (`funding`, of that amount). Owed: a payment whose settlement is still due
 * (held ones too: a hold pauses a settlement, it does not give its share away), its share less its reserved refunds;
 * one whose settlement left before all its refunds reserved, what the settlement left for its waiting refunds. A
 * refund of `paymentId` may take that payment's own share: its settlement sends what the refunds leave. `holder`: at
 * one address only.
 */
export async function availableForPayment(
  db: Db,
  accountId: string,
  asset: string,
  paymentId: string,
  only: { holder?: string; refundId?: string } = {},
): Promise<{ holder: string; amount: bigint; funding: bigint }[]> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `WITH avail AS (
       SELECT holder, sum(amount) AS n FROM ledger_entries
       WHERE owner = :account AND asset = :asset AND bucket = 'available' AND holder IS NOT NULL GROUP BY holder),
     owed AS (
       SELECT e.holder, sum(CASE WHEN ${SETTLEMENT_GONE('p')}
           THEN least(${WAITING_REFUNDS('p')}, greatest(${SHARE_LEFT('p', 'e')}, 0))
           ELSE greatest(e.amount - coalesce((SELECT sum(r.token_amount) FROM refunds r
             WHERE r.payment_id = p.id AND ${REFUND_RESERVED('r')}), 0), 0) END) AS n
       FROM ledger_journals j JOIN ledger_entries e ON e.journal_id = j.id JOIN payments p ON p.id = j.payment_id
       WHERE j.kind = 'collected' AND j.account_id = :account AND e.owner = :account AND e.bucket = 'available'
         AND e.asset = :asset AND p.id <> :payment
         AND NOT EXISTS (SELECT 1 FROM refund_fundings f WHERE f.payment_id = p.id)
         AND (p.settled_at IS NULL OR EXISTS (SELECT 1 FROM refunds r WHERE r.payment_id = p.id
           AND ${inSet('r.status', REFUND_OPEN)}))
       GROUP BY e.holder),
     earmark AS (${EARMARK}),
     spendable AS (
       SELECT h.holder, greatest(coalesce(a.n, 0) - coalesce(o.n, 0), 0) AS free, coalesce(m.n, 0) AS funding
       FROM (SELECT holder FROM avail UNION SELECT holder FROM earmark) h LEFT JOIN avail a ON a.holder = h.holder
         LEFT JOIN owed o ON o.holder = h.holder LEFT JOIN earmark m ON m.holder = h.holder)
     SELECT holder, free + funding AS n, funding FROM spendable
     WHERE free + funding > 0 AND (CAST(:holder AS text) IS NULL OR holder = :holder)
     ORDER BY 2 DESC, holder`,
    { account: accountId, asset, payment: paymentId, holder: only.holder ?? null, refund: only.refundId ?? null },
  );
  return rows.map((r: Row) => ({ holder: r.holder, amount: BigInt(r.n), funding: BigInt(r.funding) }));
}

/**
 * What is left in the `funding` bucket of the journals naming a refund, per asset and holder, each in its own asset
 * (released to the account once the refund is final). Every asset, not only the refund's token: funding paid in
 * another asset, which the refund never spends, then goes to the account's available balance of that asset.
 */
export async function refundFunding(db: Db, refundId: string): Promise<{ asset: string; holder: string; amount: bigint }[]> {
  const { rows } = await knexOf(db).raw(
    `SELECT e.asset, e.holder, sum(e.amount) AS n FROM ledger_journals j JOIN ledger_entries e ON e.journal_id = j.id
     WHERE j.refund_id = ? AND e.bucket = 'funding' GROUP BY e.asset, e.holder HAVING sum(e.amount) > 0 ORDER BY e.asset, e.holder`,
    [refundId],
  );
  return rows.map((r: Row) => ({ asset: r.asset, holder: r.holder, amount: BigInt(r.n) }));
}

export interface Holding {
  asset: string;
  holder: string;
  amount: bigint;
  /** Who the holding belongs to: per owner and bucket. */
  owners: { owner: string; bucket: string; amount: bigint }[];
}

/**
 * What the ledger says each address holds of each token of a chain as of `atBlock`: entries of movements mined at or
 * below it, and of those that move nothing on chain (reservations). `native`: the chain's own coin instead, what the
 * ledger says the address holds for others and as fees (collected, less what was settled and refunded), without the
 * operator's gas entries (`native` → `gas` at the key, which sum to zero there: the key's funding is not recorded,
 * docs/native.md); only addresses with such entries.
 */
export async function holdingsAt(db: Db, chainId: string, atBlock: bigint, native = false): Promise<Holding[]> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `SELECT e.asset, e.holder, e.owner, e.bucket, sum(e.amount) AS amount
     FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
     WHERE e.holder IS NOT NULL AND e.asset LIKE ? AND (j.block_number IS NULL OR j.block_number <= ?)
       AND NOT (e.owner = 'operator' AND e.bucket IN ('native', 'gas'))
     GROUP BY e.asset, e.holder, e.owner, e.bucket ORDER BY e.asset, e.holder, e.owner, e.bucket`,
    [native ? `${chainId}/slip44:60` : `${chainId}/erc20:%`, atBlock.toString()],
  );
  const out = new Map<string, Holding>();
  for (const r of rows as Row[]) {
    const k = `${r.asset}|${r.holder}`;
    let h = out.get(k);
    if (!h) out.set(k, (h = { asset: r.asset, holder: r.holder, amount: 0n, owners: [] }));
    h.amount += BigInt(r.amount);
    if (BigInt(r.amount) !== 0n) h.owners.push({ owner: r.owner, bucket: r.bucket, amount: BigInt(r.amount) });
  }
  return [...out.values()];
}

/**
 * Every owner's bucket of a token of a chain at one holder whose entries sum below zero, over the whole ledger (no
 * block cut: each movement is written whole with the state change it belongs to, so the ledger as it stands is never
 * short anywhere, while at an earlier block a reservation may count before the collection it spends). Only tokens
 * this service holds and the chain's own coin: the world's entries (no holder) and the gas paid from unrecorded native
 * funding (the operator's `native`) are below zero by design.
 */
export async function negativeBalances(
  db: Db,
  chainId: string,
): Promise<{ asset: string; holder: string; owner: string; bucket: string; amount: bigint }[]> {
  const { rows } = await knexOf(db).raw(
    `SELECT asset, holder, owner, bucket, sum(amount) AS amount FROM ledger_entries
     WHERE holder IS NOT NULL AND (asset LIKE ? OR (asset = ? AND NOT (owner = 'operator' AND bucket = 'native')))
     GROUP BY asset, holder, owner, bucket HAVING sum(amount) < 0
     ORDER BY asset, holder, owner, bucket`,
    [`${chainId}/erc20:%`, `${chainId}/slip44:60`],
  );
  return rows.map((r: Row) => ({ asset: r.asset, holder: r.holder, owner: r.owner, bucket: r.bucket, amount: BigInt(r.amount) }));
}

/** What recording a collected payment needs: its account, token and amount, fee terms, and the collector paid. */
export interface CollectInput {
  accountId: string;
  asset: string;
  tokenAmount: bigint;
  /** The payment's amount in its currency's minor units (a native coin's fixed fee converts at its rate). */
  amountMinor: bigint;
  currency: string;
  decimals: number;
  feeBaseMinor: bigint;
  feeBps: number;
  /** Paid to a collector of this service (collector mode); false in direct mode. */
  collected: boolean;
  collector: string | null;
  /** The refund this payment funds, if it is a refund's funding. */
  fundsRefund: string | null;
  /** That refund's token (CAIP-19): the only asset the funding counts in towards it. */
  fundsRefundAsset: string | null;
  /** The account's refund reserve terms, where it overrides the operator's. */
  reserveBps: number | null;
  reserveWindowMinutes: number | null;
}

export async function collectInput(db: Db, paymentId: string): Promise<CollectInput | undefined> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `SELECT p.account_id, p.token_asset, p.token_amount, p.amount_minor, p.currency, s.decimals, ${PAID_TO_COLLECTOR} AS collected, o.relayer, f.refund_id, fr.token_asset AS refund_asset,
       a.refund_reserve_bps, a.refund_reserve_window_minutes,
       -- A refund's funding is the account's own money: no fee.
       CASE WHEN f.payment_id IS NULL THEN coalesce(p.fee_base_minor, a.fee_base_minor) ELSE 0 END AS fee_base_minor,
       CASE WHEN f.payment_id IS NULL THEN coalesce(p.fee_bps, a.fee_bps) ELSE 0 END AS fee_bps
     FROM payments p JOIN accounts a ON a.id = p.account_id JOIN assets s ON s.id = p.token_asset
       JOIN payment_options o ON o.id = p.option_id LEFT JOIN refund_fundings f ON f.payment_id = p.id
       LEFT JOIN refunds fr ON fr.id = f.refund_id
     WHERE p.id = ? AND p.token_amount IS NOT NULL`,
    [paymentId],
  );
  const r: Row | undefined = rows[0];
  return (
    r && {
      accountId: r.account_id,
      asset: r.token_asset,
      tokenAmount: BigInt(r.token_amount),
      amountMinor: BigInt(r.amount_minor),
      currency: r.currency,
      decimals: Number(r.decimals),
      feeBaseMinor: BigInt(r.fee_base_minor ?? 0),
      feeBps: Number(r.fee_bps ?? 0),
      collected: Boolean(r.collected),
      collector: r.relayer ?? null,
      fundsRefund: r.refund_id ?? null,
      fundsRefundAsset: r.refund_asset ?? null,
      reserveBps: r.refund_reserve_bps ?? null,
      reserveWindowMinutes: r.refund_reserve_window_minutes ?? null,
    }
  );
}

/** Gas each relayer key paid over the last `hours` (the ledger's gas journals), in wei, per chain and key. */
export async function gasSpentSince(db: Db, hours: number): Promise<{ chainId: string; holder: string; wei: bigint }[]> {
  const { rows } = await knexOf(db).raw(
    `SELECT j.chain_id, e.holder, sum(e.amount)::text AS wei
       FROM ledger_journals j JOIN ledger_entries e ON e.journal_id = j.id
      WHERE j.kind = 'gas' AND j.created_at > now() - make_interval(hours => ?) AND e.bucket = 'gas'
      GROUP BY j.chain_id, e.holder`,
    [hours],
  );
  return rows.map((r: { chain_id: string; holder: string; wei: string }) => ({
    chainId: r.chain_id,
    holder: r.holder,
    wei: BigInt(r.wei),
  }));
}
