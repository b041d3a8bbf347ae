import type { Handler } from '../../src/http/handlerTypes';
import { payByX402 } from '../../src/usecases/x402/paymentLink';
import { SETTLE_WAIT_MS } from '../../src/usecases/x402/facilitator';
import { statusView } from '../payments/present';

export const payGatewayPaymentX402: Handler<'payGatewayPaymentX402'> = async ({
  db,
  config,
  chainWork,
  hub,
  confirmChecks,
  caller,
  headers,
  path,
  query,
  version,
}) => {
  const paid = await payByX402(
    { db, config, chainWork, hub, checks: confirmChecks },
    path.id,
    headers['payment-signature'],
    caller,
    query.maxPollMs ?? SETTLE_WAIT_MS,
  );
  return { status: 200, body: statusView(paid.payment, paid.asset, version), headers: { 'PAYMENT-RESPONSE': paid.paymentResponse } };
};
