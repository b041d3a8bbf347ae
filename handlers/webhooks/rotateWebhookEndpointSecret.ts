import type { Handler } from '../../src/http/handlerTypes';
import { rotateSecret } from '../../src/usecases/webhooks/endpoints';
import { endpointBody } from './present';

export const rotateWebhookEndpointSecret: Handler<'rotateWebhookEndpointSecret'> = async ({ db, config, caller, path, body }) => {
  const overlap = body?.overlapSeconds ?? 86400;
  const { endpoint, secret } = await rotateSecret(
    { db, webhooks: config.webhooks, dataKey: config.dataEncryptionKey },
    caller.accountId,
    path.endpointId,
    overlap,
  );
  return { status: 200, body: { endpoint: endpointBody(endpoint), secret }, secret: true };
};
