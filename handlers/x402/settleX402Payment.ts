import type { Handler } from '../../src/http/handlerTypes';
import { decideSettle, settle, SETTLE_WAIT_MS, type X402Decision } from '../../src/usecases/x402/facilitator';

export const settleX402Payment: Handler<'settleX402Payment'> = async ({
  db,
  config,
  chainWork,
  confirmChecks,
  hub,
  caller,
  canWaitForChanges,
  query,
  body,
  prepared,
}) => {
  // Under an Idempotency-Key the request's transaction commits only after this returns: waiting in it would wait for ourselves.
  const wait = canWaitForChanges ? (query.maxPollMs ?? SETTLE_WAIT_MS) : 0;
  const deps = { db, config, chainWork, hub, checks: confirmChecks };
  const reply = await settle(deps, caller.keyId, caller.accountId, body, prepared as X402Decision | undefined, wait);
  return { status: 200, body: reply };
};

// The signature and the simulation ask the chain's RPC node: before the Idempotency-Key's transaction, holding no
// database connection while the node answers.
settleX402Payment.prepare = ({ db, config, chainWork, confirmChecks, caller, body }) =>
  decideSettle({ db, config, chainWork, checks: confirmChecks }, caller.keyId, caller.accountId, body);
