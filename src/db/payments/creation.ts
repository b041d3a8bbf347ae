import type { Knex } from 'knex';
import { canBeStoredId, newId } from '../../domain/ids';
import type { MerchantStatus } from '../../domain/merchant';
import { Payment } from '../../domain/payment';
import { readAt } from '../clock';
import type { Batches } from '../../lib/batches';
import { preparedStatement } from '../prepared';
import { Db, isTransaction, knexOf } from '../knex';
import { PAYMENT_COLUMNS, QUEUE_EVENT, Row } from './rows';
import { EVENT_RECORD_SQL } from './changes';
import { batchedReads } from './reads';
import { onPool } from './pool';

/** When a payment may be created: its requested expiry (Unix seconds), else the default lifetime, and the longest allowed. */
export interface CreationTerms {
  expiresAt: number | null;
  ttlSeconds: number;
  maxTtlSeconds: number;
  /** The chains (CAIP-2) that take payments of the payment's mode: a settlement elsewhere cannot be paid. */
  servedChains: string[];
}

/** A payment to create, on its terms. */
interface Creation {
  draft: Payment;
  terms: CreationTerms;
}

/**
 * The statement's input, one row of `r` per creation: each column's name, its type and its value, in one place
 * (the statement's unnest and the arrays bound to it are made from this list).
 */
const INPUT: [name: string, type: string, value: (c: Creation) => unknown][] = [
  ['payment_id', 'text', ({ draft }) => draft.id],
  ['account_id', 'text', ({ draft }) => draft.accountId],
  ['merchant_id', 'text', ({ draft }) => (canBeStoredId(draft.merchantId) ? draft.merchantId : null)], // none such: merchant_not_found
  ['reference_id', 'text', ({ draft }) => draft.referenceId],
  ['currency', 'text', ({ draft }) => draft.currency],
  ['amount_minor', 'numeric', ({ draft }) => draft.amountMinor.toString()],
  ['status', 'text', ({ draft }) => draft.status],
  ['version', 'int', ({ draft }) => draft.version],
  ['success_url', 'text', ({ draft }) => draft.checkout?.successUrl ?? null],
  ['error_url', 'text', ({ draft }) => draft.checkout?.errorUrl ?? null],
  ['expires', 'bigint', ({ terms }) => terms.expiresAt],
  ['ttl', 'int', ({ terms }) => terms.ttlSeconds],
  ['max_ttl', 'bigint', ({ terms }) => terms.maxTtlSeconds],
  ['served', 'text', ({ terms }) => terms.servedChains.join(',')],
  ['event_id', 'text', () => newId('evt')],
];
const INPUT_NAMES = INPUT.map(([name]) => name).join(', ');

/** Why the statement refused a creation: the first failed condition, in the order clients are told. */
export type CreationRefusal =
  'expires_at' | 'merchant_not_found' | 'other_account' | 'merchant_deleted' | 'merchant_inactive' | 'no_settlement' | 'not_served';

/**
 * Payment creation in one statement (one round trip, one plan) for one or several payments, each row of `r` one
 * of them. The rules of creation are here and only here: each row is judged in the statement's snapshot by the
 * database's now(), and gets its refusal (CreationRefusal) or, when none, the payment and its payment.created
 * event (the record built from the inserted row like any change's: EVENT_RECORD_SQL), timed by that now(). Rows
 * are independent: one refused creates nothing and leaves the others alone.
 */
const createPaymentsStatement = preparedStatement(
  'paygate_create_payments',
  `WITH r AS (
    SELECT ${INPUT_NAMES} FROM unnest(${INPUT.map(([, type]) => `?::${type}[]`).join(', ')}) AS u(${INPUT_NAMES})
  ), judged AS (
    SELECT r.payment_id, date_trunc('milliseconds', now()) AS db_now, m.status AS merchant_status, CASE
      WHEN r.expires IS NOT NULL AND r.expires - floor(extract(epoch FROM date_trunc('milliseconds', now())))::bigint
        NOT BETWEEN 1 AND r.max_ttl THEN 'expires_at'
      WHEN m.id IS NULL THEN 'merchant_not_found'
      WHEN m.account_id <> r.account_id AND EXISTS (SELECT 1 FROM accounts t  -- the other mode of the same account
        WHERE t.id IN (m.account_id, r.account_id) AND t.live_account_id IN (m.account_id, r.account_id)) THEN 'merchant_not_found'
      WHEN m.account_id <> r.account_id THEN 'other_account'
      WHEN m.deleted_at IS NOT NULL THEN 'merchant_deleted'
      WHEN m.status <> 'active' THEN 'merchant_inactive'
      WHEN NOT EXISTS (
        SELECT 1 FROM crypto_settlements s JOIN assets a ON a.id = s.asset
        WHERE s.merchant_id = m.id AND (a.peg_currency = r.currency OR a.transfer_method = 'native') AND a.enabled) THEN 'no_settlement'
      WHEN NOT EXISTS (
        SELECT 1 FROM crypto_settlements s JOIN assets a ON a.id = s.asset
        WHERE s.merchant_id = m.id AND (a.peg_currency = r.currency OR a.transfer_method = 'native') AND a.enabled
          AND a.chain_id = ANY (string_to_array(r.served, ','))) THEN 'not_served'
    END AS refusal
    FROM r LEFT JOIN merchants m ON m.id = r.merchant_id
  ), p AS (
    INSERT INTO payments (id, account_id, merchant_id, reference_id, currency, amount_minor, status, expires_at,
                          created_at, updated_at, version, checkout_success_url, checkout_error_url)
    SELECT r.payment_id, r.account_id, r.merchant_id, r.reference_id, r.currency, r.amount_minor, r.status,
           CASE WHEN r.expires IS NULL THEN j.db_now + make_interval(secs => r.ttl) ELSE to_timestamp(r.expires) END,
           j.db_now, j.db_now, r.version, r.success_url, r.error_url
    FROM r JOIN judged j ON j.payment_id = r.payment_id AND j.refusal IS NULL
    RETURNING ${PAYMENT_COLUMNS.join(', ')}
  ), e AS (
    INSERT INTO payment_events (id, payment_id, account_id, type, version, record, dispatched_at)
    SELECT r.event_id, p.id, p.account_id, 'payment.created', p.version, ${EVENT_RECORD_SQL}, p.created_at
    FROM r JOIN p ON p.id = r.payment_id LEFT JOIN assets a ON a.id = p.token_asset
    RETURNING id, account_id, type
  ), ${QUEUE_EVENT}
  SELECT j.payment_id, j.db_now, j.refusal, j.merchant_status, p.created_at AS payment_created_at, p.expires_at AS payment_expires_at
  FROM judged j LEFT JOIN p ON p.id = j.payment_id`,
);

export type CreationOutcome =
  /** The payment as stored (its times from the database). */
  | { created: Payment; refusal?: undefined }
  /** Not created: the statement's verdict, and the merchant's status (null without a merchant) for the message. */
  | { created?: undefined; refusal: CreationRefusal; merchantStatus: MerchantStatus | null };

/**
 * Creates each of `creations` that may be, in one statement; answers each one's row, in their order. Nothing
 * here can fail after the statement: what a row means is for its own caller to make out (creationOutcome).
 */
async function createPayments(db: Db, creations: readonly Creation[]): Promise<Row[]> {
  const { rows } = await createPaymentsStatement(db, INPUT.map(([, , value]) => creations.map(value)) as Knex.Value[]);
  const byId = new Map<string, Row>(rows.map((r) => [r.payment_id, r]));
  return creations.map(({ draft }) => byId.get(draft.id) ?? {});
}

/** What the statement's row for `draft` says: its refusal, or the payment created. */
function creationOutcome(draft: Payment, row: Row): CreationOutcome {
  if (!row.db_now) throw new Error(`payment creation: the statement answered no row for ${draft.id}`);
  if (row.refusal) return { refusal: row.refusal, merchantStatus: row.merchant_status };
  const at = row.payment_created_at;
  return { created: { ...draft, createdAt: at, updatedAt: at, expiresAt: row.payment_expires_at, asOf: readAt(row) } };
}

const batchedCreations = new WeakMap<Knex, Batches<Creation, Row>>();

/** Creations and reads of a payment on this pool waiting for a statement of their kind to go in (metrics). */
export const waitingForStatements = (db: Db) => ({
  creations: batchedCreations.get(knexOf(db))?.waiting() ?? 0,
  reads: batchedReads.get(knexOf(db))?.waiting() ?? 0,
});

/**
 * Creates `draft` (its times are set here) with its payment.created event if the merchant may take it on the
 * terms; otherwise answers the refusal. Inside a transaction it runs alone, on it; on the pool, with the other
 * creations waiting at that moment, in one statement.
 */
export async function createPaymentIfAllowed(db: Db, draft: Payment, terms: CreationTerms): Promise<CreationOutcome> {
  const creation = { draft, terms };
  if (isTransaction(db)) return creationOutcome(draft, (await createPayments(db, [creation]))[0]);
  return creationOutcome(draft, await onPool(batchedCreations, db, createPayments)(creation));
}
