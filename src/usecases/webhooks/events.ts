import type { Db } from '../../db/knex';
import { decodeCursor, encodeCursor, isCursorTime } from '../../domain/cursor';
import { AppError } from '../../domain/errors';
import { ownedBy } from '../../domain/mode';
import * as repo from '../../db/webhooks';
import type { PaymentEvent } from '../../domain/paymentEvent';
import { formatCarries, type WebhookAttempt, type WebhookDelivery } from '../../domain/webhook';
import { endpointOfAccount } from './endpoints';

// Payment events as the partner sees them (list, get, deliveries and attempts) and redelivery. Events are
// stored version-neutral; src/wire/events.ts renders them for the events API and for webhook bodies alike.

export async function eventOfAccount(db: Db, accountId: string, id: string): Promise<PaymentEvent> {
  return ownedBy(await repo.findEvent(db, id), accountId, () => new AppError('event_not_found'));
}

interface EventCursor {
  createdAt: string;
  id: string;
  [k: string]: unknown;
}

const isEventCursor = (v: unknown): v is EventCursor =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as EventCursor).id === 'string' &&
  /^evt_[0-9A-Za-z]{1,64}$/.test((v as EventCursor).id) &&
  isCursorTime((v as EventCursor).createdAt);

export interface ListEventsInput {
  type?: string;
  paymentId?: string;
  cursor?: string;
  limit?: number;
}

export async function listEvents(
  db: Db,
  accountId: string,
  q: ListEventsInput,
): Promise<{ items: PaymentEvent[]; nextCursor: string | null }> {
  const limit = q.limit ?? 20;
  let after: EventCursor | undefined;
  if (q.cursor !== undefined) {
    const c = decodeCursor(q.cursor, isEventCursor);
    if (!c) throw new AppError('params_validation', undefined, [{ field: 'cursor', message: 'is not a cursor this service issued' }]);
    after = c;
  }
  const rows = await repo.listEvents(db, accountId, { type: q.type, paymentId: q.paymentId, after, limit: limit + 1 });
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit ? encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id }) : null };
}

/** Queues the event again to one endpoint, or to every enabled endpoint subscribed to its type. */
/** The event's deliveries and their attempts (the newest 200), if the event is the account's. */
export async function deliveriesOfEvent(
  db: Db,
  accountId: string,
  eventId: string,
): Promise<{ deliveries: WebhookDelivery[]; attempts: WebhookAttempt[] }> {
  const event = await eventOfAccount(db, accountId, eventId);
  const [deliveries, attempts] = await Promise.all([repo.listDeliveries(db, event.id), repo.listAttempts(db, event.id)]);
  return { deliveries, attempts };
}

export async function redeliver(db: Db, accountId: string, eventId: string, endpointId: string | undefined): Promise<WebhookDelivery[]> {
  const event = await eventOfAccount(db, accountId, eventId);
  let targets: string[];
  if (endpointId) {
    const ep = await endpointOfAccount(db, accountId, endpointId);
    if (ep.status !== 'enabled') throw new AppError('webhook_endpoint_disabled');
    if (!formatCarries(ep.payloadFormat, event.type))
      throw new AppError('params_validation', undefined, [
        {
          field: '/endpointId',
          message: `the endpoint receives the ${ep.payloadFormat} payload format, which has no ${event.type} events`,
        },
      ]);
    targets = [ep.id];
  } else {
    targets = (await repo.listEndpoints(db, accountId))
      .filter(
        (ep) => ep.status === 'enabled' && ep.enabledEvents.some((t) => t === event.type) && formatCarries(ep.payloadFormat, event.type),
      )
      .map((ep) => ep.id);
    if (targets.length === 0) throw new AppError('no_webhook_endpoint');
  }
  return repo.insertRedeliveries(db, event, targets);
}
