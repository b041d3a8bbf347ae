import type { PaymentEvent, PaymentEventRecord } from '../../domain/paymentEvent';
import type { components } from '../../../generated/2026-02-19.preview/types';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEventType, WebhookPayloadFormat } from '../../domain/webhook';

/** An event's stored data: the payment's snapshot at 2026-02-19.preview (src/wire/2026-02-19.preview/event.ts renders it). */
type Snapshot = components['schemas']['PaymentEventSnapshot'];

export interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  description: string | null;
  enabled_events: string[];
  api_version: string;
  payload_format: WebhookPayloadFormat;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  disabled_at: Date | null;
  secret: Buffer;
  previous_secret: Buffer | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  last_failed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface EventRow {
  id: string;
  payment_id: string;
  account_id: string;
  type: WebhookEventType;
  version: number;
  // SHIM(event-snapshot): events stored before migration 20261127090100 have only this snapshot (docs/upgrading.md).
  /** The 2026-02-19.preview snapshot; no longer written (migration 20261201090100). */
  data: Snapshot;
  /** Version-neutral; null for events stored before migration 20261127090100 (read from `data`). */
  record: PaymentEventRecord | null;
  created_at: Date;
}

export const toEvent = (r: EventRow): PaymentEvent => ({
  id: r.id,
  paymentId: r.payment_id,
  accountId: r.account_id,
  type: r.type,
  version: r.version,
  record: r.record ?? recordOf(r.data),
  createdAt: r.created_at,
});

// SHIM(event-snapshot): the record of an event stored before `record` existed, from its snapshot (every fact of
// it is there). Goes once a migration has filled `record` for every event (docs/upgrading.md).
function recordOf(data: Snapshot): PaymentEventRecord {
  return {
    paymentId: data.paymentId,
    merchantId: data.merchantId,
    referenceId: data.referenceId,
    status: data.status,
    failureCode: data.failureCode,
    currency: data.amount.unit.slice('iso4217/'.length),
    amountMinor: data.amount.value,
    tokenAsset: data.tokenAmount ? data.tokenAmount.unit.slice('caip19/'.length) : null,
    tokenAmount: data.tokenAmount ? data.tokenAmount.value : null,
    txHash: data.txId,
    cancelledReason: data.cancelledReason,
    refundedAt: data.refundedAt,
    createdAt: data.createdAt,
    expiresAt: new Date(data.expiresAt * 1000).toISOString(),
    version: data.version,
  };
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  account_id: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  redelivery: boolean;
  attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface AttemptRow {
  id: string;
  delivery_id: string;
  event_id: string;
  endpoint_id: string;
  attempted_at: Date;
  duration_ms: number;
  response_status: number | null;
  error: string | null;
  succeeded: boolean;
}

// ---- Rows to domain types (src/domain/webhook.ts) ----

export function toEndpoint(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    accountId: r.account_id,
    url: r.url,
    description: r.description,
    // The column holds only types the API validated on the way in.
    enabledEvents: r.enabled_events as WebhookEventType[],
    apiVersion: r.api_version,
    payloadFormat: r.payload_format,
    status: r.status,
    disabledReason: r.disabled_reason,
    disabledAt: r.disabled_at,
    previousSecretExpiresAt: r.previous_secret_expires_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deletedAt: r.deleted_at,
  };
}

export function toDelivery(d: DeliveryRow): WebhookDelivery {
  return {
    id: d.id,
    eventId: d.event_id,
    endpointId: d.endpoint_id,
    accountId: d.account_id,
    status: d.status,
    redelivery: d.redelivery,
    attempts: d.attempts,
    nextAttemptAt: d.next_attempt_at,
    createdAt: d.created_at,
    updatedAt: d.updated_at,
  };
}

export function toAttempt(a: AttemptRow): WebhookAttempt {
  return {
    id: a.id,
    deliveryId: a.delivery_id,
    eventId: a.event_id,
    endpointId: a.endpoint_id,
    attemptedAt: a.attempted_at,
    durationMs: a.duration_ms,
    responseStatus: a.response_status,
    error: a.error,
    succeeded: a.succeeded,
  };
}
