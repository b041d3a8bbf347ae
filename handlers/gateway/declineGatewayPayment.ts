import type { Handler } from '../../src/http/handlerTypes';
import { declineByBuyer } from '../../src/usecases/gateway/payments';
import { statusView } from '../payments/present';

export const declineGatewayPayment: Handler<'declineGatewayPayment'> = async ({ db, config, path, version }) => {
  const { payment, asset } = await declineByBuyer(db, config.publicBaseUrl, path.id);
  return { status: 200, body: statusView(payment, asset, version) };
};
