import type { Handler } from '../../src/http/handlerTypes';
import { cancelByBuyer } from '../../src/usecases/gatewayPayments';

export const cancelGatewayPayment: Handler<'cancelGatewayPayment'> = async ({ db, config, path }) => {
  const p = await cancelByBuyer(db, config.publicBaseUrl, path.id);
  return {
    status: 200,
    body: { paymentId: p.id, status: 'cancelled', cancelledReason: 'cancelled_by_user', cancelledAt: p.cancelledAt!.toISOString() },
  };
};
