import type { Handler } from '../../src/http/handlerTypes';
import { STABLE_VERSION } from '../../src/domain/versions';
import { paymentForMerchant } from '../../src/usecases/payments';
import { refundedOfPayment } from '../../src/usecases/refunds';
import { detailsView, tokenAmount } from './present';

export const getPayment: Handler<'getPayment'> = async ({ db, caller, headers, path, version }) => {
  const { payment, asset } = await paymentForMerchant(db, caller.accountId, headers['merchant-id']!, path.id);
  const details = detailsView(payment, asset);
  // The stable version keeps its wire shape; the preview adds what has been refunded.
  if (version === STABLE_VERSION) return { status: 200, body: details as typeof details & PreviewOnly };
  const refunded = await refundedOfPayment(db, payment.id);
  return {
    status: 200,
    body: {
      ...details,
      refundedAmount: { unit: `iso4217/${payment.currency}`, value: refunded.minor.toString() },
      refundedTokenAmount: asset && payment.tokenAmount !== null ? tokenAmount(asset, refunded.tokens) : null,
    },
  };
};

type PreviewOnly = { refundedAmount: never; refundedTokenAmount: never };
