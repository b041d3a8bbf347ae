import type { Handler } from '../../src/http/handlerTypes';
import { endpointsOfAccount } from '../../src/usecases/webhooks/endpoints';
import { endpointBody } from './present';

export const listWebhookEndpoints: Handler<'listWebhookEndpoints'> = async ({ db, caller }) => {
  const endpoints = await endpointsOfAccount(db, caller.accountId);
  return { status: 200, body: { endpoints: endpoints.map(endpointBody) } };
};
