import type { PaymentEvent } from '../domain/paymentEvent';
import type { ApiVersion } from '../domain/versions';
import * as preview from './2026-02-19.preview/event';

// Stored events (version-neutral, src/domain/paymentEvent.ts) as each API version shows them: the events
// API (getEvent, listEvents) and the body of every webhook delivery, signed as rendered here. A version
// that changes the shape of events gets its own module next to 2026-02-19.preview/.

const RENDERERS: Record<ApiVersion, (e: PaymentEvent, version: ApiVersion) => preview.WebhookEvent> = {
  // Events and webhooks arrived with 2026-02-19.preview; an endpoint or caller pinned to 2026-02-18 gets the
  // same shape (that version has no events API to differ from).
  '2026-02-18': preview.renderEvent,
  '2026-02-19.preview': preview.renderEvent,
};

export type WebhookEvent = preview.WebhookEvent;

export function renderEvent(e: PaymentEvent, version: ApiVersion): WebhookEvent {
  return RENDERERS[version](e, version);
}
