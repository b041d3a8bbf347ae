import type { Handler } from '../../src/http/handlerTypes';
import { verify } from '../../src/usecases/x402/facilitator';

export const verifyX402Payment: Handler<'verifyX402Payment'> = async ({ prepared }) => ({
  status: 200,
  body: prepared as Awaited<ReturnType<typeof verify>>,
});

// Verify moves nothing and writes nothing: all of it runs before any Idempotency-Key's transaction, holding no
// database connection while the chain's RPC node answers.
verifyX402Payment.prepare = ({ db, config, chainWork, confirmChecks, caller, body }) =>
  verify({ db, config, chainWork, checks: confirmChecks }, caller.keyId, caller.accountId, body);
