import type { RefundRow } from '../../src/domain/refund';
import { isLivemode } from '../../src/domain/mode';

/** A refund on the wire (schema Refund). */
export const refundBody = (r: RefundRow, publicBaseUrl: string) => ({
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
  livemode: isLivemode(r.accountId),
});
