import type { RefundRow } from '../../src/domain/refund';

/** A refund on the wire (schema Refund). */
export const refundBody = (r: RefundRow) => ({
  id: r.id,
  paymentId: r.paymentId,
  amount: { unit: `iso4217/${r.currency}`, value: r.amountMinor.toString() },
  tokenAmount: { unit: `caip19/${r.tokenAsset}`, value: r.tokenAmount.toString() },
  status: r.status,
  failureCode: r.failureCode,
  txId: r.txHash,
  createdAt: r.createdAt.toISOString(),
});
