import type { Handler } from '../../src/http/handlerTypes';
import { listAttempts, listDeliveries } from '../../src/db/webhooksRepo';
import { eventOfAccount } from '../../src/usecases/webhookEvents';
import { attemptBody, deliveryBody } from './present';

export const listEventAttempts: Handler<'listEventAttempts'> = async ({ db, caller, path }) => {
  const event = await eventOfAccount(db, caller.accountId, path.eventId);
  const [deliveries, attempts] = await Promise.all([listDeliveries(db, event.id), listAttempts(db, event.id)]);
  return { status: 200, body: { deliveries: deliveries.map(deliveryBody), attempts: attempts.map(attemptBody) } };
};
