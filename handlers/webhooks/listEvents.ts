import type { Handler } from '../../src/http/handlerTypes';
import { listEvents as list, renderEvent } from '../../src/usecases/webhookEvents';

export const listEvents: Handler<'listEvents'> = async ({ db, caller, version, query }) => {
  const page = await list(db, caller.accountId, query);
  return { status: 200, body: { events: page.items.map((e) => renderEvent(e, version)) as never[], nextCursor: page.nextCursor } };
};
