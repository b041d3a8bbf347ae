import type { Handler } from '../../src/http/handlerTypes';
import { updateEndpoint } from '../../src/usecases/webhookEndpoints';
import { endpointBody } from './present';

export const updateWebhookEndpoint: Handler<'updateWebhookEndpoint'> = async ({ db, config, caller, path, body }) => {
  const row = await updateEndpoint({ db, webhooks: config.webhooks, dataKey: config.dataEncryptionKey }, caller.accountId, path.endpointId, body);
  return { status: 200, body: { endpoint: endpointBody(row) } };
};
