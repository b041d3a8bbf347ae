import type { Knex } from 'knex';
import { canBeStoredId, newId } from '../domain/ids';
import type { Merchant } from '../domain/merchant';
import { Payment, PaymentStatus, Transition, TransitionChanges, TRANSITIONS } from '../domain/payment';
import { paymentEventRecord } from '../domain/paymentEvent';
import { ASSET_COLUMNS, Asset, assetFromRow } from './assetsRepo';
import { readAt } from './clock';
import { Coalesced, coalescing } from './coalesce';
import { isDatabaseUnavailable } from './unavailable';
import { merchantFromRow, MerchantRow } from './merchantsRepo';
import { preparedByText, preparedStatement } from './prepared';
import { Db, isTransaction, knexOf } from './knex';

// Payments and their outbox. Every change of a payment bumps its version and writes one payment_events
// row with its payment_event_outbox row (the webhook dispatcher's queue) in the same statement, then NOTIFYs
// `payment_changed` (delivered on commit) so that long-polls in every process wake up. Events are written with
// dispatched_at set: only events of the release before the outbox wait with it NULL (migration 20261201090000).

export const CHANGE_CHANNEL = 'payment_changed';

/** effectiveStatus (domain/payment.ts) in SQL, of the payments row `p`: an open payment past its expiry is expired. */
const effectiveStatusSql = (p: string) =>
  `CASE WHEN ${p}.status = 'requires_action' AND ${p}.expires_at <= now() THEN 'expired' ELSE ${p}.status END`;

/** Payments per status, for the metrics: one grouped query. */
export async function countPaymentsByStatus(db: Db): Promise<Record<string, number>> {
  const { rows } = await knexOf(db).raw<{ rows: { status: string; n: string }[] }>(`
    SELECT ${effectiveStatusSql('p')} AS status, count(*) AS n FROM payments p GROUP BY 1`);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

type Row = Record<string, any>;

export const fromRow = (r: Row): Payment => ({
  id: r.id,
  accountId: r.account_id,
  merchantId: r.merchant_id,
  referenceId: r.reference_id,
  currency: r.currency,
  amountMinor: BigInt(r.amount_minor),
  status: r.status,
  failureCode: r.failure_code,
  cancelledReason: r.cancelled_reason,
  cancelledAt: r.cancelled_at,
  expiresAt: r.expires_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  refundedAt: r.refunded_at,
  version: r.version,
  checkout: r.checkout_success_url ? { successUrl: r.checkout_success_url, errorUrl: r.checkout_error_url } : null,
  tokenAsset: r.token_asset,
  tokenAmount: r.token_amount === null || r.token_amount === undefined ? null : BigInt(r.token_amount),
  buyerAccount: r.buyer_account,
  txHash: r.tx_hash,
  settlementTxHash: r.settlement_tx_hash,
  settledAt: r.settled_at,
  feeAmount: r.fee_amount === null || r.fee_amount === undefined ? null : BigInt(r.fee_amount),
  settlementAmount: r.settlement_amount === null || r.settlement_amount === undefined ? null : BigInt(r.settlement_amount),
  optionId: r.option_id ?? null,
  asOf: readAt(r),
});

export interface PaymentWithAsset {
  payment: Payment;
  asset: Asset | null;
}

/** The columns fromRow reads: statements name them (prepared statements must not read `*`). */
const PAYMENT_COLUMNS = [
  'id',
  'account_id',
  'merchant_id',
  'reference_id',
  'currency',
  'amount_minor',
  'status',
  'failure_code',
  'cancelled_reason',
  'cancelled_at',
  'expires_at',
  'created_at',
  'updated_at',
  'refunded_at',
  'version',
  'checkout_success_url',
  'checkout_error_url',
  'token_asset',
  'token_amount',
  'buyer_account',
  'tx_hash',
  'settlement_tx_hash',
  'settled_at',
  'fee_amount',
  'settlement_amount',
  'option_id',
] as const;

const split = (r: Row): PaymentWithAsset => ({ payment: fromRow(r), asset: r.asset_id ? assetFromRow(r, 'asset_') : null });

// The hottest read of the service (status, details, long-poll wake-ups): SQL built once, not per call.
/** What `split` reads: the payment `p`, the database's clock and the payment's asset `a`. */
const PAYMENT_WITH_ASSET = `${PAYMENT_COLUMNS.map((c) => `p.${c}`).join(', ')}, now() AS db_now, ${ASSET_COLUMNS.map((c) => `a.${c} AS asset_${c}`).join(', ')}`;
const findPaymentsStatement = preparedStatement(
  'paygate_find_payments',
  `SELECT ${PAYMENT_WITH_ASSET} FROM payments p LEFT JOIN assets a ON a.id = p.token_asset WHERE p.id = ANY(?::text[])`,
  { planEachCall: true }, // its generic plan on a young table is a sequential scan (prepared.ts)
);

/** The rows of payments `ids` (one statement), in their order; undefined for an unknown id. */
async function findPayments(db: Db, ids: string[]): Promise<(Row | undefined)[]> {
  const { rows } = await findPaymentsStatement(db, [ids]);
  const byId = new Map<string, Row>(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id));
}

// Reads of a payment and creations on the pool are coalesced (db/coalesce.ts): those that arrive while two
// statements of their kind are under way go together in the next one (64 at most), as one round trip, one plan
// execution and one commit. Two, so that one statement's commit overlaps the next one's work; more bought nothing in
// make bench, and the rest of the pool stays free for everything else. A read joins only a statement that starts
// after it was asked for, so it sees every change committed before (and its db_now is no earlier).
// For creations (BATCHING), a failure is everyone's when the database cannot be reached or no connection came in
// time, not when the statement ran past statement_timeout: that may be one creation's doing (a merchant row locked
// by hand blocks the foreign-key check of its payments), so each creation of the statement is then tried alone.
// A read by id cannot be held up by one of its ids, so for reads (READ_BATCHING) a timeout is everyone's too.
const STATEMENT_TIMEOUT = '57014';
const BATCHING = {
  running: 2,
  max: 64,
  everyones: (e: unknown) => isDatabaseUnavailable(e) && (e as { code?: unknown }).code !== STATEMENT_TIMEOUT,
};

/** `run` on the pool of `db`, coalesced: one Coalesced per pool, kept in `per` (made on the pool's first call). */
function onPool<T, R>(
  per: WeakMap<Knex, Coalesced<T, R>>,
  db: Db,
  run: (db: Db, items: T[]) => Promise<R[]>,
  batching: Parameters<typeof coalescing>[1] = BATCHING,
): Coalesced<T, R> {
  const knex = knexOf(db);
  let coalesced = per.get(knex);
  if (!coalesced) per.set(knex, (coalesced = coalescing((items: T[]) => run(db, items), batching)));
  return coalesced;
}
const coalescedReads = new WeakMap<Knex, Coalesced<string, Row | undefined>>();
const READ_BATCHING = { ...BATCHING, everyones: isDatabaseUnavailable };

/**
 * An UPDATE of one payment, its event (`type`) with the NOTIFY that wakes long-polls, and the payment as it is
 * after it (with its asset): one statement, so one round trip and atomic with or without a caller's
 * transaction. The event's `record` and `data` are built here from the updated row (EVENT_RECORD_SQL, EVENT_DATA_SQL); undefined, and
 * nothing written, when no row matched.
 */
async function updateWithEvent(db: Db, update: Knex.QueryBuilder, type: string): Promise<PaymentWithAsset | undefined> {
  const knex = knexOf(db);
  // One SQL text per kind of change: each is prepared once per connection (planning it cost more than running it).
  const change = knex.raw(CHANGE_SQL, [update.returning([...PAYMENT_COLUMNS]), newId('evt'), type, CHANGE_CHANNEL]);
  const { rows } = await preparedByText(knex, change);
  return rows[0] && split(rows[0]);
}

export async function findPayment(db: Db, id: string): Promise<PaymentWithAsset | undefined> {
  if (!canBeStoredId(id)) return undefined;
  const row = isTransaction(db) ? (await findPayments(db, [id]))[0] : await onPool(coalescedReads, db, findPayments, READ_BATCHING)(id);
  return row && split(row);
}

// A time as Date#toISOString writes the Date node-postgres reads from it (whole milliseconds, cut, not rounded).
const isoSql = (col: string) => `to_char(date_trunc('milliseconds', ${col}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// An event's record built in SQL from the payment row `p` as changed and its token's asset `a` (LEFT JOINed): the
// same as paymentEventRecord(payment, asset) of that row, which tests/integration/payments.test.ts ("stored
// events") checks for every kind of change. `data` (the preview snapshot the release before `record` read) is no
// longer written (migration 20261201090100).
const STATUS_SQL = effectiveStatusSql('p');
const PAID_SQL = `(a.id IS NOT NULL AND p.token_amount IS NOT NULL)`;
const EVENT_RECORD_SQL = `jsonb_build_object(
  'paymentId', p.id, 'merchantId', p.merchant_id, 'referenceId', p.reference_id, 'status', ${STATUS_SQL},
  'failureCode', p.failure_code, 'currency', p.currency, 'amountMinor', p.amount_minor::text,
  'tokenAsset', CASE WHEN ${PAID_SQL} THEN a.id END, 'tokenAmount', CASE WHEN ${PAID_SQL} THEN p.token_amount::text END,
  'txHash', p.tx_hash, 'cancelledReason', p.cancelled_reason, 'refundedAt', ${isoSql('p.refunded_at')},
  'createdAt', ${isoSql('p.created_at')}, 'expiresAt', ${isoSql('p.expires_at')}, 'version', p.version)`;
/** The CTE that queues the event `e` (which RETURNs id, account_id, type) for the webhook dispatcher. */
const QUEUE_EVENT = `queued AS (
    INSERT INTO payment_event_outbox (event_id, account_id, type) SELECT id, account_id, type FROM e
  )`;

/** updateWithEvent's statement: the UPDATE (bound as `p`), the event built from its row and queued, the NOTIFY, the row read back. */
const CHANGE_SQL = `WITH p AS (?), e AS (
    INSERT INTO payment_events (id, payment_id, account_id, type, version, record, dispatched_at)
    SELECT ?, p.id, p.account_id, ?, p.version, ${EVENT_RECORD_SQL}, now()
    FROM p LEFT JOIN assets a ON a.id = p.token_asset
    RETURNING id, payment_id, account_id, type
  ), ${QUEUE_EVENT}
  SELECT ${PAYMENT_WITH_ASSET}, (SELECT pg_notify(?, e.payment_id) FROM e) AS notified
  FROM p LEFT JOIN assets a ON a.id = p.token_asset`;

/**
 * Payment creation in one statement (one round trip, one plan) for one or several payments, each row of `r` one
 * of them: the database's now(), the merchant and whether it settles an enabled asset pegged to the currency;
 * and, only for the rows whose every condition of creation holds, the payment and its payment.created event,
 * timed by that now(). The conditions are the ones createPayment (usecases/payments.ts) judges each returned
 * row by to choose its error, in the same snapshot. Rows are independent: one refused creates nothing and
 * leaves the others alone.
 */
const CREATION_COLUMNS = `payment_id, account_id, merchant_id, reference_id, currency, amount_minor, status, version, success_url,
  error_url, expires, ttl, max_ttl, event_id, record`;
const createPaymentsStatement = preparedStatement(
  'paygate_create_payments',
  `WITH r AS (
    SELECT ${CREATION_COLUMNS}
    FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::numeric[], ?::text[], ?::int[], ?::text[], ?::text[],
                ?::bigint[], ?::int[], ?::bigint[], ?::text[], ?::jsonb[]) AS u(${CREATION_COLUMNS})
  ), m AS (
    SELECT r.payment_id, date_trunc('milliseconds', now()) AS db_now, m.id, m.account_id, m.name, m.email, m.icon_url, m.status,
           m.created_at, m.deleted_at, EXISTS (
      SELECT 1 FROM crypto_settlements s JOIN assets a ON a.id = s.asset
      WHERE s.merchant_id = m.id AND a.peg_currency = r.currency AND a.enabled) AS settles_currency
    FROM r LEFT JOIN merchants m ON m.id = r.merchant_id
  ), allowed AS (
    SELECT r.payment_id, m.db_now,
           CASE WHEN r.expires IS NULL THEN m.db_now + make_interval(secs => r.ttl) ELSE to_timestamp(r.expires) END AS expires_at
    FROM r JOIN m ON m.payment_id = r.payment_id
    WHERE (r.expires IS NULL OR r.expires - floor(extract(epoch FROM m.db_now))::bigint BETWEEN 1 AND r.max_ttl)
      AND m.account_id = r.account_id AND m.deleted_at IS NULL AND m.status = 'active' AND m.settles_currency
  ), p AS (
    INSERT INTO payments (id, account_id, merchant_id, reference_id, currency, amount_minor, status, expires_at,
                          created_at, updated_at, version, checkout_success_url, checkout_error_url)
    SELECT r.payment_id, r.account_id, r.merchant_id, r.reference_id, r.currency, r.amount_minor, r.status, allowed.expires_at,
           allowed.db_now, allowed.db_now, r.version, r.success_url, r.error_url
    FROM r JOIN allowed ON allowed.payment_id = r.payment_id
    RETURNING id, created_at, expires_at
  ), e AS (
    INSERT INTO payment_events (id, payment_id, account_id, type, version, record, dispatched_at)
    SELECT r.event_id, p.id, r.account_id, 'payment.created', r.version,
           r.record || jsonb_build_object('createdAt', ${isoSql('p.created_at')}, 'expiresAt', ${isoSql('p.expires_at')}), p.created_at
    FROM r JOIN p ON p.id = r.payment_id
    RETURNING id, account_id, type
  ), ${QUEUE_EVENT}
  SELECT m.payment_id, m.db_now, m.id, m.account_id, m.name, m.email, m.icon_url, m.status, m.created_at, m.deleted_at,
         m.settles_currency, p.created_at AS payment_created_at, p.expires_at AS payment_expires_at
  FROM m LEFT JOIN p ON p.id = m.payment_id`,
);

/** When a payment may be created: its requested expiry (Unix seconds), else the default lifetime, and the longest allowed. */
export interface CreationTerms {
  expiresAt: number | null;
  ttlSeconds: number;
  maxTtlSeconds: number;
}

export interface CreationOutcome {
  /** The database's now() (whole milliseconds): the clock expiry is judged by. */
  dbNow: Date;
  merchant: (Merchant & { settlesCurrency: boolean }) | undefined;
  /** The payment as stored (its times from the database), or undefined when a condition of creation failed. */
  created: Payment | undefined;
}

/** A payment to create, on its terms. */
interface Creation {
  draft: Payment;
  terms: CreationTerms;
}

/**
 * Creates each of `creations` that may be, in one statement; answers each one's row, in their order. Nothing
 * here can fail after the statement: what a row means is for its own caller to make out (creationOutcome).
 */
async function createPayments(db: Db, creations: readonly Creation[]): Promise<Row[]> {
  // One array per column of the statement's `r`, each creation one element of each.
  const columns: unknown[][] = Array.from({ length: 15 }, () => []);
  for (const { draft, terms } of creations) {
    // The event's times are the database's: the statement writes createdAt and expiresAt into its record.
    const values = [
      draft.id,
      draft.accountId,
      canBeStoredId(draft.merchantId) ? draft.merchantId : null, // no such merchant: nothing is inserted
      draft.referenceId,
      draft.currency,
      draft.amountMinor.toString(),
      draft.status,
      draft.version,
      draft.checkout?.successUrl ?? null,
      draft.checkout?.errorUrl ?? null,
      terms.expiresAt,
      terms.ttlSeconds,
      terms.maxTtlSeconds,
      newId('evt'),
      JSON.stringify(paymentEventRecord(draft, null)),
    ];
    values.forEach((v, i) => columns[i].push(v));
  }
  const { rows } = await createPaymentsStatement(db, columns as Knex.Value[]);
  const byId = new Map<string, Row>(rows.map((r) => [r.payment_id, r]));
  return creations.map(({ draft }) => byId.get(draft.id) ?? {});
}

/** What the statement's row for `draft` says: the conditions it was judged on, and the payment if created. */
function creationOutcome(draft: Payment, row: Row): CreationOutcome {
  if (!row.db_now) throw new Error(`payment creation: the statement answered no row for ${draft.id}`);
  const dbNow = readAt(row);
  const merchant = row.id ? { ...merchantFromRow(row as MerchantRow), settlesCurrency: Boolean(row.settles_currency) } : undefined;
  const created: Payment | undefined = row.payment_created_at
    ? { ...draft, createdAt: row.payment_created_at, updatedAt: row.payment_created_at, expiresAt: row.payment_expires_at, asOf: dbNow }
    : undefined;
  return { dbNow, merchant, created };
}

const coalescedCreation = new WeakMap<Knex, Coalesced<Creation, Row>>();

/** Creations and reads of a payment on this pool waiting for a statement of their kind to go in (metrics). */
export const waitingForStatements = (db: Db) => ({
  creations: coalescedCreation.get(knexOf(db))?.waiting() ?? 0,
  reads: coalescedReads.get(knexOf(db))?.waiting() ?? 0,
});

/**
 * Creates `draft` (its times are set here) with its payment.created event if the merchant may take it on the
 * terms; returns what the conditions were judged on either way. Inside a transaction it runs alone, on it;
 * on the pool, with the other creations waiting at that moment, in one statement.
 */
export async function createPaymentIfAllowed(db: Db, draft: Payment, terms: CreationTerms): Promise<CreationOutcome> {
  const creation = { draft, terms };
  if (isTransaction(db)) return creationOutcome(draft, (await createPayments(db, [creation]))[0]);
  return creationOutcome(draft, await onPool(coalescedCreation, db, createPayments)(creation));
}

/**
 * Applies a transition if the payment is still in one of its from-states (and, leaving requires_action
 * other than by expiry, not yet past its expiry). Returns the new state, or undefined if it did not apply.
 */
export async function applyTransition(
  db: Db,
  id: string,
  t: Transition,
  changes: TransitionChanges = {},
): Promise<PaymentWithAsset | undefined> {
  const { from, to, event } = TRANSITIONS[t];
  // One statement: in the caller's transaction as it is (several may run at once on it, each on its own payment), or alone.
  const knex = knexOf(db);
  const q = knex('payments')
    .where({ id })
    .whereIn('status', from)
    .update({ ...transitionColumns(knex, changes), status: to, ...newVersion(knex) });
  if (t === 'expire') q.andWhere('expires_at', '<=', knex.fn.now());
  else if (from.includes('requires_action')) q.andWhere('expires_at', '>', knex.fn.now());
  return updateWithEvent(knex, q, event);
}

/** What every change of a payment writes besides its own columns: the next version, and when. */
const newVersion = (knex: Knex) => ({ version: knex.raw('version + 1'), updated_at: knex.fn.now() });

/** The columns a transition's changes write. */
function transitionColumns(trx: Db, changes: TransitionChanges): Record<string, unknown> {
  const knex = knexOf(trx);
  if ('cancelledReason' in changes) return { cancelled_reason: changes.cancelledReason, cancelled_at: knex.fn.now() };
  if ('failureCode' in changes) return { failure_code: changes.failureCode };
  if ('txHash' in changes) return { tx_hash: changes.txHash };
  if ('confirmed' in changes) {
    const c = changes.confirmed;
    return {
      option_id: c.optionId,
      token_asset: c.tokenAsset,
      token_amount: c.tokenAmount.toString(),
      chain_id: c.chainId,
      buyer_account: c.buyerAccount,
      tx_nonce: c.txNonce,
      signature: c.signature,
      caller_info: JSON.stringify(c.callerInfo),
      collected_data: c.collectedData,
      // The fee terms are the account's as the payment is confirmed, whatever they are when it settles.
      fee_base_minor: knex.raw('(SELECT fee_base_minor FROM accounts WHERE accounts.id = payments.account_id)'),
      fee_bps: knex.raw('(SELECT fee_bps FROM accounts WHERE accounts.id = payments.account_id)'),
    };
  }
  return {};
}

/** Marks a succeeded payment refunded; exactly one of any number of racing calls succeeds. */
export async function markRefunded(db: Db, id: string): Promise<PaymentWithAsset | undefined> {
  const knex = knexOf(db);
  return updateWithEvent(
    knex,
    knex('payments')
      .where({ id, status: 'succeeded' })
      .whereNull('refunded_at')
      .update({ refunded_at: knex.fn.now(), ...newVersion(knex) }),
    'payment.refunded',
  );
}

/** The settlement transfer reached its confirmation depth: settlement details and a payment.settled event. */
export async function markSettled(db: Db, id: string, txHash: string): Promise<PaymentWithAsset | undefined> {
  const knex = knexOf(db);
  return updateWithEvent(
    knex,
    knex('payments')
      .where({ id, status: 'succeeded' })
      .whereNull('settled_at')
      .update({ settled_at: knex.fn.now(), settlement_tx_hash: txHash, ...newVersion(knex) }),
    'payment.settled',
  );
}

/** The settlement transfer was just held (after its attempts, or by an operator): a payment.settlement_held event. */
export async function markSettlementHeld(db: Db, id: string): Promise<PaymentWithAsset | undefined> {
  const knex = knexOf(db);
  return updateWithEvent(
    knex,
    knex('payments').where({ id, status: 'succeeded' }).whereNull('settled_at').whereNotNull('settlement_held_at').update(newVersion(knex)),
    'payment.settlement_held',
  );
}

/**
 * What the settlement transfers send where (recorded in the transaction that stores them signed; shown once
 * they are confirmed). One statement for a batch of settlements.
 */
export async function recordSettlementPlans(
  db: Db,
  plans: { paymentId: string; fee: bigint; amount: bigint; destination: string }[],
): Promise<void> {
  const knex = knexOf(db);
  if (!plans.length) return;
  await knex.raw(
    `UPDATE payments SET fee_amount = v.fee::numeric, settlement_amount = v.amount::numeric, settlement_destination = v.destination
     FROM (VALUES ${plans.map(() => '(?, ?, ?, ?)').join(', ')}) AS v(id, fee, amount, destination) WHERE payments.id = v.id`,
    plans.flatMap((p) => [p.paymentId, p.fee.toString(), p.amount.toString(), p.destination]),
  );
}

/** Succeeded collector-mode payments whose settlement is not confirmed yet (a metric). */
export async function settlementBacklog(db: Db): Promise<number> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(`SELECT count(*)::int AS n FROM payments p
    JOIN chain_transactions c ON c.payment_id = p.id AND c.purpose = 'collect' AND c.status = 'confirmed'
    WHERE p.status = 'succeeded' AND p.settled_at IS NULL`);
  return Number(rows[0].n);
}

/** Expires open payments past their expiry, a batch at a time; safe with several sweepers at once. */
export async function expireDue(db: Db, batch = 200): Promise<number> {
  const knex = knexOf(db);
  const due = await knex('payments')
    .where({ status: 'requires_action' })
    .andWhere('expires_at', '<=', knex.fn.now())
    .orderBy('expires_at')
    .limit(batch)
    .pluck('id');
  let n = 0;
  for (const id of due) if (await applyTransition(db, id, 'expire')) n++;
  return n;
}

export interface ListFilter {
  accountId: string;
  merchantId?: string;
  statuses?: PaymentStatus[];
  referenceId?: string;
  startTs?: number;
  endTs?: number;
  network?: string;
  tokenSymbol?: string;
  asset?: string;
}

export type SortKey = 'createdAt' | 'lastUpdatedAt' | 'amount';
const SORT_COLUMN: Record<SortKey, string> = { createdAt: 'p.created_at', lastUpdatedAt: 'p.updated_at', amount: 'p.amount_minor' };

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

function filtered(db: Db, f: ListFilter) {
  const knex = knexOf(db);
  const q = knex('payments as p').where('p.account_id', f.accountId);
  if (f.merchantId) q.andWhere('p.merchant_id', f.merchantId);
  if (f.statuses?.length) q.whereIn('p.status', f.statuses);
  if (f.referenceId) q.andWhereLike('p.reference_id', `%${escapeLike(f.referenceId)}%`);
  if (f.startTs !== undefined) q.andWhere('p.created_at', '>=', new Date(f.startTs * 1000));
  if (f.endTs !== undefined) q.andWhere('p.created_at', '<', new Date(f.endTs * 1000));
  if (f.network) q.andWhere('p.chain_id', f.network);
  if (f.asset) q.andWhere('p.token_asset', f.asset);
  if (f.tokenSymbol) q.whereIn('p.token_asset', knex('assets').whereRaw('upper(symbol) = upper(?)', [f.tokenSymbol]).select('id'));
  return q;
}

export interface ListPage {
  rows: (PaymentWithAsset & { merchantName: string; merchantIconUrl: string | null })[];
  hasMore: boolean;
}

export async function listPayments(
  db: Db,
  f: ListFilter,
  sort: SortKey,
  dir: 'asc' | 'desc',
  limit: number,
  after?: { v: string; i: string },
): Promise<ListPage> {
  const knex = knexOf(db);
  const col = SORT_COLUMN[sort];
  const q = filtered(db, f)
    .leftJoin('assets as a', 'a.id', 'p.token_asset')
    .join('merchants as m', 'm.id', 'p.merchant_id')
    .select(
      'p.*',
      knex.raw('now() AS db_now'),
      'm.name as merchant_name',
      'm.icon_url as merchant_icon_url',
      ...ASSET_COLUMNS.map((c) => `a.${c} as asset_${c}`),
    )
    .orderBy([
      { column: col, order: dir },
      { column: 'p.id', order: dir },
    ])
    .limit(limit + 1);
  if (after) {
    const cast = sort === 'amount' ? 'numeric' : 'timestamptz';
    q.andWhereRaw(`(${col}, p.id) ${dir === 'desc' ? '<' : '>'} (?::${cast}, ?)`, [after.v, after.i]);
  }
  const rows = await q;
  return {
    rows: rows.slice(0, limit).map((r: Row) => ({ ...split(r), merchantName: r.merchant_name, merchantIconUrl: r.merchant_icon_url })),
    hasMore: rows.length > limit,
  };
}

export const sortValue = (p: Payment, sort: SortKey): string =>
  sort === 'amount' ? p.amountMinor.toString() : (sort === 'createdAt' ? p.createdAt : p.updatedAt).toISOString();

/** Stats over everything the filter matches (not just the page): succeeded payments only. */
export async function listStats(db: Db, f: ListFilter) {
  const knex = knexOf(db);
  const base = filtered(db, f).andWhere('p.status', 'succeeded');
  const [revenue, [totals]] = await Promise.all([
    base.clone().groupBy('p.currency').orderBy('p.currency').select('p.currency', knex.raw('sum(p.amount_minor)::text as amount')),
    base.clone().select(knex.raw('count(*)::int as transactions'), knex.raw('count(distinct p.buyer_account)::int as customers')),
  ]);
  return {
    totalRevenue: revenue.map((r: Row) => ({ amount: r.amount as string, currency: r.currency as string })),
    totalTransactions: Number(totals.transactions),
    totalCustomers: Number(totals.customers),
  };
}
