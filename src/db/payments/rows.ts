import { LAPSE, Payment } from '../../domain/payment';
import { ASSET_COLUMNS, Asset, assetFromRow } from '../assetsRepo';
import { readAt } from '../clock';

const LAPSING = LAPSE.from.map((s) => `'${s}'`).join(', ');
/** Whether the payments row `p` has lapsed: the rule of domain/payment.ts's LAPSE, in SQL (the database's clock). */
export const lapsedSql = (p: string) => `${p}.status IN (${LAPSING}) AND ${p}.expires_at <= now()`;
/** effectiveStatus (domain/payment.ts) in SQL, of the payments row `p`, built from the same transition. */
export const effectiveStatusSql = (p: string) => `CASE WHEN ${lapsedSql(p)} THEN '${LAPSE.to}' ELSE ${p}.status END`;
export type Row = Record<string, any>;

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
  settlementAttempts: Number(r.settlement_attempts ?? 0),
  settlementNextAt: r.settlement_next_at ?? null,
  settlementHeldAt: r.settlement_held_at ?? null,
  settlementHoldReason: r.settlement_hold_reason ?? null,
  optionId: r.option_id ?? null,
  asOf: readAt(r),
});

export interface PaymentWithAsset {
  payment: Payment;
  asset: Asset | null;
}

/** The columns fromRow reads: statements name them (prepared statements must not read `*`). */
export const PAYMENT_COLUMNS = [
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
  'settlement_attempts',
  'settlement_next_at',
  'settlement_held_at',
  'settlement_hold_reason',
  'option_id',
] as const;

export const split = (r: Row): PaymentWithAsset => ({ payment: fromRow(r), asset: r.asset_id ? assetFromRow(r, 'asset_') : null });

// The hottest read of the service (status, details, long-poll wake-ups): SQL built once, not per call.
/** What `split` reads: the payment `p`, the database's clock and the payment's asset `a`. */
export const PAYMENT_WITH_ASSET = `${PAYMENT_COLUMNS.map((c) => `p.${c}`).join(', ')}, now() AS db_now, ${ASSET_COLUMNS.map((c) => `a.${c} AS asset_${c}`).join(', ')}`;
// A time as Date#toISOString writes the Date node-postgres reads from it (whole milliseconds, cut, not rounded).
export const isoSql = (col: string) => `to_char(date_trunc('milliseconds', ${col}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** The CTE that queues the event `e` (which RETURNs id, account_id, type) for the webhook dispatcher. */
export const QUEUE_EVENT = `queued AS (
    INSERT INTO payment_event_outbox (event_id, account_id, type) SELECT id, account_id, type FROM e
  )`;
