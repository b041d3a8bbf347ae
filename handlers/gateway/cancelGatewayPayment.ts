import type { Handler } from '../../src/http/handlerTypes';
import { cancelByBuyer } from '../../src/usecases/gateway/payments';
import { cancelledView } from '../payments/present';

export const cancelGatewayPayment: Handler<'cancelGatewayPayment'> = async ({ db, config, path, version }) => {
  const p = await cancelByBuyer(db, config.publicBaseUrl, path.id);
  return { status: 200, body: cancelledView(p, 'cancelled_by_user', version) };
};
