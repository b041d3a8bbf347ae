import type { Handler } from '../../src/http/handlerTypes';
import { listEvents as list } from '../../src/usecases/webhooks/events';
import { renderEvent } from '../../src/wire/events';

export const listEvents: Handler<'listEvents'> = async ({ db, caller, version, query }) => {
  const page = await list(db, caller.accountId, query);
  return { status: 200, body: { events: page.items.map((e) => renderEvent(e, version)), nextCursor: page.nextCursor } };
};
