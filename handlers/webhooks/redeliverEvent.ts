import type { Handler } from '../../src/http/handlerTypes';
import { redeliver } from '../../src/usecases/webhooks/events';
import { deliveryBody } from './present';

export const redeliverEvent: Handler<'redeliverEvent'> = async ({ db, caller, path, body, webhookWork, afterCommit }) => {
  const deliveries = await redeliver(db, caller.accountId, path.eventId, body?.endpointId);
  afterCommit(() => webhookWork.enqueue(deliveries));
  return { status: 202, body: { deliveries: deliveries.map(deliveryBody) } };
};
