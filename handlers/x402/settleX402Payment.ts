import type { Handler } from '../../src/http/handlerTypes';
import { settle, SETTLE_WAIT_MS } from '../../src/usecases/x402';
import type { X402Request } from '../../src/usecases/x402Check';

export const settleX402Payment: Handler<'settleX402Payment'> = async ({
  db,
  config,
  chainWork,
  hub,
  caller,
  canWaitForChanges,
  query,
  body,
}) => {
  // Under an Idempotency-Key the request's transaction commits only after this returns: waiting in it would wait for ourselves.
  const wait = canWaitForChanges ? (query.maxPollMs ?? SETTLE_WAIT_MS) : 0;
  return { status: 200, body: await settle(db, config, chainWork, hub, caller.keyId, caller.accountId, body as X402Request, wait) };
};
