import type { Handler } from '../../src/http/handlerTypes';
import { deliveriesOfEvent } from '../../src/usecases/webhooks/events';
import { attemptBody, deliveryBody } from './present';

export const listEventAttempts: Handler<'listEventAttempts'> = async ({ db, caller, path }) => {
  const { deliveries, attempts } = await deliveriesOfEvent(db, caller.accountId, path.eventId);
  return { status: 200, body: { deliveries: deliveries.map(deliveryBody), attempts: attempts.map(attemptBody) } };
};
