import type { Handler } from '../../src/http/handlerTypes';
import { deleteEndpoint } from '../../src/usecases/webhooks/endpoints';

export const deleteWebhookEndpoint: Handler<'deleteWebhookEndpoint'> = async ({ db, caller, path }) => {
  await deleteEndpoint(db, caller.accountId, path.endpointId);
  return { status: 200, body: { id: path.endpointId, deleted: true } };
};
