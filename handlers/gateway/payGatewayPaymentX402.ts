import type { Handler } from '../../src/http/handlerTypes';
import { payByX402 } from '../../src/usecases/gatewayX402';
import { SETTLE_WAIT_MS } from '../../src/usecases/x402';
import { statusView } from '../payments/present';

export const payGatewayPaymentX402: Handler<'payGatewayPaymentX402'> = async ({
  db,
  config,
  chainWork,
  hub,
  caller,
  headers,
  path,
  query,
  version,
}) => {
  const paid = await payByX402(
    db,
    config,
    chainWork,
    hub,
    path.id,
    headers['payment-signature'],
    caller.keyId,
    query.maxPollMs ?? SETTLE_WAIT_MS,
  );
  return { status: 200, body: statusView(paid.payment, paid.asset, version), headers: { 'PAYMENT-RESPONSE': paid.paymentResponse } };
};
