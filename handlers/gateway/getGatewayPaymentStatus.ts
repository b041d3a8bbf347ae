import type { Handler } from '../../src/http/handlerTypes';
import { gatewayPayment } from '../../src/usecases/gatewayPayments';
import { pollStatus } from '../../src/usecases/payments';
import { statusView } from '../payments/present';

export const getGatewayPaymentStatus: Handler<'getGatewayPaymentStatus'> = async ({ db, config, hub, path, query }) => {
  const { payment, asset } = await pollStatus(db, hub, () => gatewayPayment(db, config.publicBaseUrl, path.id), query.maxPollMs);
  return { status: 200, body: statusView(payment, asset) };
};
