import type { Handler, HandlerContext } from '../../src/http/handlerTypes';
import type { Asset } from '../../src/domain/asset';
import type { Payment } from '../../src/domain/payment';
import { STABLE_VERSION, type ApiVersion } from '../../src/domain/versions';
import { paymentForMerchant } from '../../src/usecases/payments';
import { refundedOfPayment } from '../../src/usecases/refunds';
import { detailsView, tokenAmount } from './present';

type PreviewOnly = { refundedAmount: never; refundedTokenAmount: never };

/** A payment's details (getPayment, and the test helpers' answers): the stable wire shape, or the preview's superset. */
export async function paymentDetails(db: HandlerContext<'getPayment'>['db'], version: ApiVersion, payment: Payment, asset: Asset | null) {
  const details = detailsView(payment, asset, version);
  // The stable version keeps its wire shape; the preview adds what has been refunded.
  if (version === STABLE_VERSION) return details as typeof details & PreviewOnly;
  const refunded = await refundedOfPayment(db, payment.id);
  return {
    ...details,
    refundedAmount: { unit: `iso4217/${payment.currency}`, value: refunded.minor.toString() },
    refundedTokenAmount: asset && payment.tokenAmount !== null ? tokenAmount(asset, refunded.tokens) : null,
  };
}

export const getPayment: Handler<'getPayment'> = async ({ db, caller, headers, path, version }) => {
  const { payment, asset } = await paymentForMerchant(db, caller.accountId, headers['merchant-id']!, path.id);
  return { status: 200, body: await paymentDetails(db, version, payment, asset) };
};
