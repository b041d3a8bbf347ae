import type { Handler } from '../../src/http/handlerTypes';
import { resolveGatewayPaymentId } from '../../src/domain/gatewayId';
import { gatewayPayment } from '../../src/usecases/gateway/payments';
import { pollStatus } from '../../src/usecases/payments/payments';
import { sharedBody } from '../../src/http/sharedBody';
import { statusView } from '../payments/present';

export const getGatewayPaymentStatus: Handler<'getGatewayPaymentStatus'> = async ({ db, config, hub, path, query, version }) => {
  const id = resolveGatewayPaymentId(path.id, config.publicBaseUrl) ?? path.id;
  const read = await pollStatus(db, hub, id, () => gatewayPayment(db, config.publicBaseUrl, path.id), query.maxPollMs);
  // The waiters one change wakes share `read`: one body for all of them.
  return { status: 200, body: sharedBody(read, version, () => statusView(read.payment, read.asset, version)) };
};
