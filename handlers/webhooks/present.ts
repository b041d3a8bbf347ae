import type { DeliveryRow, EndpointRow, AttemptRow } from '../../src/db/webhooksRepo';

// Rows to API shapes (spec/components/schemas/Webhook*.yaml). Secrets never leave through here.

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function endpointBody(r: EndpointRow) {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    enabledEvents: r.enabled_events as never[],
    apiVersion: r.api_version,
    status: r.status,
    disabledReason: r.disabled_reason,
    disabledAt: iso(r.disabled_at),
    previousSecretExpiresAt: r.previous_secret_expires_at && r.previous_secret_expires_at > new Date() ? r.previous_secret_expires_at.toISOString() : null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

export function deliveryBody(d: DeliveryRow) {
  return {
    id: d.id,
    endpointId: d.endpoint_id,
    status: d.status,
    redelivery: d.redelivery,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? iso(d.next_attempt_at) : null,
    createdAt: d.created_at.toISOString(),
    updatedAt: d.updated_at.toISOString(),
  };
}

export function attemptBody(a: AttemptRow) {
  return {
    id: a.id,
    deliveryId: a.delivery_id,
    endpointId: a.endpoint_id,
    attemptedAt: a.attempted_at.toISOString(),
    durationMs: a.duration_ms,
    responseStatus: a.response_status,
    error: a.error,
    succeeded: a.succeeded,
  };
}
