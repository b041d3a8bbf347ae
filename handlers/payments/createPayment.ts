import type { Handler } from '../../src/http/handlerTypes';
import { createPayment as create } from '../../src/usecases/payments/payments';
import { createdView } from './present';
import { modeOfScope } from '../../src/domain/mode';

export const createPayment: Handler<'createPayment'> = async ({
  db,
  config,
  caller,
  headers,
  body,
  afterCommit,
  webhookWork,
  chainWork,
  version,
}) => {
  const served = chainWork.settlingChains(modeOfScope(caller.accountId)).map((c) => c.chainId);
  const p = await create(db, config, caller.accountId, headers['merchant-id']!, body, served);
  // Its payment.created event is fanned out to webhook endpoints now, not on the dispatcher's next tick.
  afterCommit(async () => webhookWork.eventsWritten());
  return { status: 201, body: createdView(p, config.publicBaseUrl, version) };
};
