import type { Handler } from '../../src/http/handlerTypes';
import { createEndpoint } from '../../src/usecases/webhookEndpoints';
import { endpointBody } from './present';

export const createWebhookEndpoint: Handler<'createWebhookEndpoint'> = async ({ db, config, caller, version, body }) => {
  const { endpoint, secret } = await createEndpoint({ db, webhooks: config.webhooks, dataKey: config.dataEncryptionKey }, caller.accountId, version, body);
  return { status: 201, body: { endpoint: endpointBody(endpoint), secret }, secret: true };
};
