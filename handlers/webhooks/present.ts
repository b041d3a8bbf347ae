import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../src/domain/webhook';
import { isLivemode } from '../../src/domain/mode';

// Domain types to API shapes (spec/components/schemas/Webhook*.yaml). Secrets never leave through here.

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function endpointBody(e: WebhookEndpoint) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    enabledEvents: e.enabledEvents,
    apiVersion: e.apiVersion,
    payloadFormat: e.payloadFormat,
    status: e.status,
    disabledReason: e.disabledReason,
    disabledAt: iso(e.disabledAt),
    previousSecretExpiresAt:
      e.previousSecretExpiresAt && e.previousSecretExpiresAt > new Date() ? e.previousSecretExpiresAt.toISOString() : null,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
    livemode: isLivemode(e.accountId),
  };
}

export function deliveryBody(d: WebhookDelivery) {
  return {
    id: d.id,
    endpointId: d.endpointId,
    status: d.status,
    redelivery: d.redelivery,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

export function attemptBody(a: WebhookAttempt) {
  return {
    id: a.id,
    deliveryId: a.deliveryId,
    endpointId: a.endpointId,
    attemptedAt: a.attemptedAt.toISOString(),
    durationMs: a.durationMs,
    responseStatus: a.responseStatus,
    error: a.error,
    succeeded: a.succeeded,
  };
}
