import type { Handler } from '../../src/http/handlerTypes';
import { eventOfAccount } from '../../src/usecases/webhooks/events';
import { renderEvent } from '../../src/wire/events';

export const getEvent: Handler<'getEvent'> = async ({ db, caller, version, path }) => {
  const event = await eventOfAccount(db, caller.accountId, path.eventId);
  return { status: 200, body: { event: renderEvent(event, version) } };
};
