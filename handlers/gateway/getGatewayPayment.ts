import type { Handler } from '../../src/http/handlerTypes';
import { gatewayPaymentWithMerchant } from '../../src/usecases/gateway/payments';
import { gatewayPaymentView } from './present';

export const getGatewayPayment: Handler<'getGatewayPayment'> = async ({ db, config, path, version }) => {
  const { payment, merchant } = await gatewayPaymentWithMerchant(db, config.publicBaseUrl, path.id);
  return { status: 200, body: gatewayPaymentView(payment, merchant, version) };
};
