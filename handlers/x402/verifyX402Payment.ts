import type { Handler } from '../../src/http/handlerTypes';
import { verify } from '../../src/usecases/x402';
import type { X402Request } from '../../src/usecases/x402Check';

export const verifyX402Payment: Handler<'verifyX402Payment'> = async ({ db, config, chainWork, caller, body }) => ({
  status: 200,
  body: await verify(db, config, chainWork, caller.keyId, caller.accountId, body as X402Request),
});
