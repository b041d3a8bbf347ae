import type { Knex } from 'knex';
import { canBeStoredId, newId } from '../../domain/ids';
import type { Merchant } from '../../domain/merchant';
import { Payment } from '../../domain/payment';
import { paymentEventRecord } from '../../domain/paymentEvent';
import { readAt } from '../clock';
import type { Batches } from '../../lib/batches';
import { merchantFromRow, MerchantRow } from '../merchantsRepo';
import { preparedStatement } from '../prepared';
import { Db, isTransaction, knexOf } from '../knex';
import { QUEUE_EVENT, Row, isoSql } from './rows';
import { batchedReads } from './reads';
import { onPool } from './pool';

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

const batchedCreations = new WeakMap<Knex, Batches<Creation, Row>>();

/** Creations and reads of a payment on this pool waiting for a statement of their kind to go in (metrics). */
export const waitingForStatements = (db: Db) => ({
  creations: batchedCreations.get(knexOf(db))?.waiting() ?? 0,
  reads: batchedReads.get(knexOf(db))?.waiting() ?? 0,
});

/**
 * Creates `draft` (its times are set here) with its payment.created event if the merchant may take it on the
 * terms; returns what the conditions were judged on either way. Inside a transaction it runs alone, on it;
 * on the pool, with the other creations waiting at that moment, in one statement.
 */
export async function createPaymentIfAllowed(db: Db, draft: Payment, terms: CreationTerms): Promise<CreationOutcome> {
  const creation = { draft, terms };
  if (isTransaction(db)) return creationOutcome(draft, (await createPayments(db, [creation]))[0]);
  return creationOutcome(draft, await onPool(batchedCreations, db, createPayments)(creation));
}
