import type { Handler, HandlerContext } from '../../src/http/handlerTypes';
import type { Asset } from '../../src/domain/asset';
import type { Payment } from '../../src/domain/payment';
import { STABLE_VERSION } from '../../src/domain/versions';
import { paymentForMerchant } from '../../src/usecases/payments/payments';
import { refundsOfPayment } from '../../src/usecases/payments/refunds';
import { detailsView, tokenAmount } from './present';
import { refundBody } from './refundPresent';

type PreviewOnly = { refundedAmount: never; refundedTokenAmount: never };

/**
 * A payment's details (getPayment, and the test helpers' answers): at every version with its refunds as they stand
 * (what became of the money); the preview adds what has been refunded in all.
 */
export async function paymentDetails(
  { db, config, version }: Pick<HandlerContext<'getPayment'>, 'db' | 'config' | 'version'>,
  payment: Payment,
  asset: Asset | null,
) {
  const details = detailsView(payment, asset, version);
  const { refunded, refunds: rows } = await refundsOfPayment(db, payment.id);
  const refunds = rows.map((r) => refundBody(r, config.publicBaseUrl, version));
  if (version === STABLE_VERSION) return { ...details, refunds } as typeof details & PreviewOnly & { refunds: typeof refunds };
  return {
    ...details,
    refundedAmount: { unit: `iso4217/${payment.currency}`, value: refunded.minor.toString() },
    refundedTokenAmount: asset && payment.tokenAmount !== null ? tokenAmount(asset, refunded.tokens) : null,
    refunds,
  };
}

export const getPayment: Handler<'getPayment'> = async (ctx) => {
  const { payment, asset } = await paymentForMerchant(ctx.db, ctx.caller.accountId, ctx.headers['merchant-id']!, ctx.path.id);
  return { status: 200, body: await paymentDetails(ctx, payment, asset) };
};
