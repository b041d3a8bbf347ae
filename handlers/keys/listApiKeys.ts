import type { Handler } from '../../src/http/handlerTypes';
import { listApiKeys as list } from '../../src/usecases/keys/apiKeys';
import { apiKeyBody } from './present';

export const listApiKeys: Handler<'listApiKeys'> = async ({ db, caller }) => ({
  status: 200,
  body: { data: (await list(db, caller)).map((k) => apiKeyBody(k, caller)) },
});
