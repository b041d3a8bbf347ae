import type { PaymentStatus } from './payment';
import type { WebhookEventType } from './webhook';

/**
 * A payment as one of its events records it (stored in payment_events.record): facts in no API version's shape,
 * so that each version renders the same stored event its own way (src/wire/, API reads and webhook bodies).
 * Written in the transaction of the change, built in SQL from the changed row (src/db/payments/changes.ts,
 * EVENT_RECORD_SQL); receivers drop stale events by `version`.
 */
export interface PaymentEventRecord {
  paymentId: string;
  merchantId: string;
  referenceId: string;
  /** The status as of the event (an open payment past its expiry is expired). */
  status: PaymentStatus;
  failureCode: string | null;
  /** ISO 4217 code, and the amount in its minor units (decimal digits). */
  currency: string;
  amountMinor: string;
  /** CAIP-19 asset id and base-unit amount of the token paid, once an option is confirmed. */
  tokenAsset: string | null;
  tokenAmount: string | null;
  txHash: string | null;
  cancelledReason: string | null;
  /** ISO 8601 times (milliseconds, UTC). */
  refundedAt: string | null;
  createdAt: string;
  expiresAt: string;
  version: number;
  /** On refund.* events: the refund as of the event. */
  refund?: RefundEventRecord;
}

export interface RefundEventRecord {
  id: string;
  currency: string;
  amountMinor: string;
  tokenAsset: string;
  tokenAmount: string;
  status: string;
  failureCode: string | null;
  txHash: string | null;
  createdAt: string;
}

/** One stored event of a payment. */
export interface PaymentEvent {
  id: string;
  paymentId: string;
  accountId: string;
  type: WebhookEventType;
  version: number;
  record: PaymentEventRecord;
  createdAt: Date;
}

/**
 * For the hosted 2026-05-18 webhook format (src/wire/hosted/event.ts): what the payment's row and its events up to
 * this one add to the event's record (read by src/db/webhooks/hostedFacts.ts).
 */
export interface HostedFacts {
  /** CAIP-2 chain and CAIP-10 buyer of the committed option (null when none was committed, or no on-chain buyer). */
  chainId: string | null;
  buyerAccount: string | null;
  /** The paid token's decimals (null before an option is committed). */
  decimals: number | null;
  /** The fee terms the settlement applies (none in direct mode and on a refund's funding). */
  fee: { baseMinor: bigint; bps: number };
  /** What the settlement transfer sent the merchant, and its transaction (null until it is planned / confirmed). */
  settledAmount: string | null;
  settlementTxHash: string | null;
  /** ISO time of the payment's first event of each type, among its events up to this one. */
  stageTimes: Partial<Record<WebhookEventType, string>>;
}
