import type { Handler } from '../../src/http/handlerTypes';
import { CheckedConfirm, checkConfirm, confirmPayment as confirm } from '../../src/usecases/gateway/confirm';
import { gatewayPayment } from '../../src/usecases/gateway/payments';
import { pollStatus } from '../../src/usecases/payments/payments';
import { statusView } from '../payments/present';
import { callerInfo } from './present';

export const confirmPayment: Handler<'confirmPayment'> = async ({
  db,
  canWaitForChanges,
  config,
  hub,
  chainWork,
  caller,
  headers,
  path,
  query,
  body,
  prepared,
  version,
}) => {
  const done = await confirm(db, config, chainWork, path.id, body, callerInfo(caller, headers), prepared as CheckedConfirm);
  // Under an Idempotency-Key the request runs in a transaction that commits only after this returns:
  // waiting inside it for the chain would wait for ourselves, so answer at once then.
  const wait = canWaitForChanges ? query.maxPollMs : 0;
  const { payment, asset } = wait
    ? await pollStatus(db, hub, done.payment.id, () => gatewayPayment(db, config.publicBaseUrl, done.payment.id), wait)
    : done;
  return { status: 200, body: statusView(payment, asset, version) };
};

// The signature and the simulation ask the chain's RPC node: before the Idempotency-Key's transaction, holding no
// database connection while the node answers.
confirmPayment.prepare = ({ db, config, confirmChecks, caller, path, body }) =>
  checkConfirm(db, config, confirmChecks, path.id, body, caller);
