import type { Handler } from '../../src/http/handlerTypes';
import { resolveGatewayPaymentId } from '../../src/domain/gatewayId';
import { gatewayPayment } from '../../src/usecases/gatewayPayments';
import { pollStatus } from '../../src/usecases/payments';
import { statusView } from '../payments/present';

export const getGatewayPaymentStatus: Handler<'getGatewayPaymentStatus'> = async ({ db, config, hub, path, query }) => {
  const id = resolveGatewayPaymentId(path.id, config.publicBaseUrl) ?? path.id;
  const { payment, asset } = await pollStatus(db, hub, id, () => gatewayPayment(db, config.publicBaseUrl, path.id), query.maxPollMs);
  return { status: 200, body: statusView(payment, asset) };
};
