import type { Handler } from '../../src/http/handlerTypes';
import { createApiKey as create } from '../../src/usecases/keys/apiKeys';
import { apiKeyBody } from './present';

export const createApiKey: Handler<'createApiKey'> = async ({ db, caller, body }) => {
  const { key, apiKey } = await create(db, caller, body);
  return { status: 201, body: { apiKey: apiKeyBody(key, caller), secret: apiKey }, secret: true };
};
