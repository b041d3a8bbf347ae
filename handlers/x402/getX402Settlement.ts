import type { Handler } from '../../src/http/handlerTypes';
import { settlementStatus } from '../../src/usecases/x402/facilitator';

export const getX402Settlement: Handler<'getX402Settlement'> = async ({ db, hub, caller, path, query }) => ({
  status: 200,
  body: await settlementStatus(db, hub, caller.accountId, path.id, query.maxPollMs ?? 0),
});
