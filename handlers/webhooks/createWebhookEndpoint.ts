import type { Handler } from '../../src/http/handlerTypes';
import { CheckedUrl, createEndpoint, prepareCreateEndpoint } from '../../src/usecases/webhooks/endpoints';
import { endpointBody } from './present';

export const createWebhookEndpoint: Handler<'createWebhookEndpoint'> = async ({ db, config, caller, version, body, prepared }) => {
  const { endpoint, secret } = await createEndpoint(
    { db, webhooks: config.webhooks, dataKey: config.dataEncryptionKey },
    caller.accountId,
    version,
    body,
    prepared as CheckedUrl,
  );
  return { status: 201, body: { endpoint: endpointBody(endpoint), secret }, secret: true };
};

// The endpoint limit and the URL's DNS, before the Idempotency-Key's transaction.
createWebhookEndpoint.prepare = ({ db, config, caller, body }) =>
  prepareCreateEndpoint({ db, webhooks: config.webhooks, dataKey: config.dataEncryptionKey }, caller.accountId, body);
