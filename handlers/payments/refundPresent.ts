import type { RefundRow } from '../../src/domain/refund';
import type { ApiVersion } from '../../src/domain/versions';
import { livemodeOf } from '../../src/wire/livemode';

/**
 * A refund on the wire: schema Refund at 2026-02-18 (the refund answer and payment details), RefundPreview (the same
 * plus `livemode`) at the preview.
 */
export const refundBody = (r: RefundRow, publicBaseUrl: string, version: ApiVersion) => ({
  id: r.id,
  paymentId: r.paymentId,
  amount: { unit: `iso4217/${r.currency}`, value: r.amountMinor.toString() },
  tokenAmount: { unit: `caip19/${r.tokenAsset}`, value: r.tokenAmount.toString() },
  status: r.status,
  failureCode: r.failureCode,
  txId: r.txHash,
  fundingInstructions:
    r.status === 'requires_funding' && r.fundingPaymentId
      ? { paymentId: r.fundingPaymentId, gatewayUrl: `${publicBaseUrl}/?pid=${r.fundingPaymentId}` }
      : null,
  createdAt: r.createdAt.toISOString(),
  ...livemodeOf(version, r.accountId),
});
