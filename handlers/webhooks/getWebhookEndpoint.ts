import type { Handler } from '../../src/http/handlerTypes';
import { endpointOfAccount } from '../../src/usecases/webhooks/endpoints';
import { endpointBody } from './present';

export const getWebhookEndpoint: Handler<'getWebhookEndpoint'> = async ({ db, caller, path }) => {
  const endpoint = await endpointOfAccount(db, caller.accountId, path.endpointId);
  return { status: 200, body: { endpoint: endpointBody(endpoint) } };
};
