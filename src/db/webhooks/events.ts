import type { PaymentEvent } from '../../domain/paymentEvent';
import type { WebhookAttempt, WebhookDelivery, WebhookEventType } from '../../domain/webhook';
import { Db, knexOf } from '../knex';
import { AttemptRow, DeliveryRow, EventRow, toAttempt, toDelivery, toEvent } from './rows';

// ---- Events ----

export async function findEvent(db: Db, id: string): Promise<PaymentEvent | undefined> {
  const knex = knexOf(db);
  const row = await knex<EventRow>('payment_events').where({ id }).first();
  return row && toEvent(row);
}

export interface EventListQuery {
  type?: string;
  paymentId?: string;
  after?: { createdAt: string; id: string };
  limit: number;
}

export async function listEvents(db: Db, accountId: string, q: EventListQuery): Promise<PaymentEvent[]> {
  const knex = knexOf(db);
  const query = knex<EventRow>('payment_events').where({ account_id: accountId });
  if (q.type) query.where({ type: q.type as WebhookEventType });
  if (q.paymentId) query.where({ payment_id: q.paymentId });
  if (q.after) query.whereRaw('(created_at, id) < (?::timestamptz, ?)', [q.after.createdAt, q.after.id]);
  const rows = await query
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(q.limit);
  return rows.map(toEvent);
}

export async function listDeliveries(db: Db, eventId: string): Promise<WebhookDelivery[]> {
  const knex = knexOf(db);
  const rows = await knex<DeliveryRow>('webhook_deliveries')
    .where({ event_id: eventId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  return rows.map(toDelivery);
}

/** The event's newest 200 attempts, oldest first. */
export async function listAttempts(db: Db, eventId: string): Promise<WebhookAttempt[]> {
  const knex = knexOf(db);
  const newest = await knex<AttemptRow>('webhook_attempts')
    .where({ event_id: eventId })
    .orderBy([
      { column: 'attempted_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(200);
  return newest.reverse().map(toAttempt);
}
