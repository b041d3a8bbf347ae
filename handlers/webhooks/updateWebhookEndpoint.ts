import type { Handler } from '../../src/http/handlerTypes';
import { CheckedUrl, prepareUpdateEndpoint, updateEndpoint } from '../../src/usecases/webhooks/endpoints';
import { endpointBody } from './present';

export const updateWebhookEndpoint: Handler<'updateWebhookEndpoint'> = async ({ db, config, caller, path, body, prepared }) => {
  const deps = { db, webhooks: config.webhooks, dataKey: config.dataEncryptionKey };
  const endpoint = await updateEndpoint(deps, caller.accountId, path.endpointId, body, prepared as CheckedUrl | undefined);
  return { status: 200, body: { endpoint: endpointBody(endpoint) } };
};

// A new URL's DNS, outside the update's transaction.
updateWebhookEndpoint.prepare = ({ db, config, caller, path, body }) =>
  prepareUpdateEndpoint({ db, webhooks: config.webhooks, dataKey: config.dataEncryptionKey }, caller.accountId, path.endpointId, body);
