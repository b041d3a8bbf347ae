// Webhook endpoints, deliveries and attempts as the use cases and handlers see them (camelCase, no secrets).
// src/db/webhooks/rows.ts maps its rows to these.

/** The event types an endpoint can subscribe to (spec/components/schemas/WebhookEventType). */
export type WebhookEventType =
  | 'payment.created'
  | 'payment.processing'
  | 'payment.succeeded'
  | 'payment.failed'
  | 'payment.expired'
  | 'payment.cancelled'
  | 'payment.settled'
  | 'payment.settlement_held'
  | 'payment.refunded'
  | 'refund.created'
  | 'refund.succeeded'
  | 'refund.failed';

/**
 * What an endpoint's deliveries look like (spec/components/schemas/WebhookPayloadFormat): `paygate`, ours (the
 * default, rendered at the endpoint's apiVersion), or `2026-05-18`, the hosted WalletConnect Pay service's payload
 * contract (src/wire/hosted/), which has only the payment types of HOSTED_EVENT_TYPES.
 */
export type WebhookPayloadFormat = 'paygate' | '2026-05-18';

/** The types the hosted 2026-05-18 payload contract has; the others go only to endpoints in our format. */
export const HOSTED_EVENT_TYPES: readonly WebhookEventType[] = [
  'payment.created',
  'payment.processing',
  'payment.succeeded',
  'payment.failed',
  'payment.expired',
  'payment.cancelled',
  'payment.settled',
];

/** Whether an endpoint in `format` can receive events of `type`. */
export const formatCarries = (format: WebhookPayloadFormat, type: WebhookEventType): boolean =>
  format === 'paygate' || HOSTED_EVENT_TYPES.includes(type);

/** A URL that receives an account's payment events. Its signing secrets never leave the repository here. */
export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  description: string | null;
  enabledEvents: WebhookEventType[];
  apiVersion: string;
  payloadFormat: WebhookPayloadFormat;
  status: 'enabled' | 'disabled';
  disabledReason: string | null;
  disabledAt: Date | null;
  /** When the secret replaced by the last rotation stops signing (null when none still signs). */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** Deleted endpoints stay (their deliveries' history names them); the API answers 404 for them. */
  deletedAt: Date | null;
}

/** An endpoint as a delivery attempt needs it: with its signing secrets, sealed (only the delivery opens them). */
export type SigningEndpoint = WebhookEndpoint & {
  sealedSecret: Buffer;
  /** The secret replaced by the last rotation: it signs too until previousSecretExpiresAt. */
  previousSealedSecret: Buffer | null;
};

/** A new endpoint as it is stored: its signing secret already sealed. */
export type NewWebhookEndpoint = Pick<
  WebhookEndpoint,
  'id' | 'accountId' | 'url' | 'description' | 'enabledEvents' | 'apiVersion' | 'payloadFormat'
> & {
  sealedSecret: Buffer;
};

/** What an update changes; `disabled` turns the endpoint off with its reason, `enabled` on again (its failure streak forgotten). */
export interface WebhookEndpointChanges {
  url?: string;
  enabledEvents?: WebhookEventType[];
  description?: string | null;
  payloadFormat?: WebhookPayloadFormat;
  enabled?: true;
  disabled?: { reason: string };
}

/** One event on its way to one endpoint. */
export interface WebhookDelivery {
  id: string;
  eventId: string;
  endpointId: string;
  accountId: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  /** Queued by a redelivery request. */
  redelivery: boolean;
  attempts: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What the delivery workers need to pick a delivery up. */
export type WebhookDeliveryRef = Pick<WebhookDelivery, 'id' | 'endpointId' | 'accountId'>;

/** One HTTP request of a delivery. */
export interface WebhookAttempt {
  id: string;
  deliveryId: string;
  eventId: string;
  endpointId: string;
  attemptedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
  succeeded: boolean;
}
