import type { Handler } from '../../src/http/handlerTypes';
import { revokeApiKey as revoke } from '../../src/usecases/keys/apiKeys';
import { apiKeyBody } from './present';

export const revokeApiKey: Handler<'revokeApiKey'> = async ({ db, caller, path }) => ({
  status: 200,
  body: { apiKey: apiKeyBody(await revoke(db, caller, path.keyId), caller) },
});
