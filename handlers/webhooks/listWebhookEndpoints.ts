import type { Handler } from '../../src/http/handlerTypes';
import { listEndpoints } from '../../src/db/webhooksRepo';
import { endpointBody } from './present';

export const listWebhookEndpoints: Handler<'listWebhookEndpoints'> = async ({ db, caller }) => {
  const rows = await listEndpoints(db, caller.accountId);
  return { status: 200, body: { endpoints: rows.map(endpointBody) } };
};
