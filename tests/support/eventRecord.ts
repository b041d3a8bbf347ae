import type { Asset } from '../../src/domain/asset';
import { effectiveStatus, Payment } from '../../src/domain/payment';
import type { PaymentEventRecord } from '../../src/domain/paymentEvent';

/**
 * The record an event of `p` should hold, written independently of the SQL that builds it (src/db/payments/changes.ts,
 * EVENT_RECORD_SQL): the stored events are checked against it field for field.
 */
export function paymentEventRecord(p: Payment, asset: Asset | null): PaymentEventRecord {
  const paid = asset !== null && p.tokenAmount !== null;
  return {
    paymentId: p.id,
    merchantId: p.merchantId,
    referenceId: p.referenceId,
    status: effectiveStatus(p),
    failureCode: p.failureCode,
    currency: p.currency,
    amountMinor: p.amountMinor.toString(),
    tokenAsset: paid ? asset.id : null,
    tokenAmount: paid ? p.tokenAmount!.toString() : null,
    txHash: p.txHash,
    cancelledReason: p.cancelledReason,
    refundedAt: p.refundedAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
    expiresAt: p.expiresAt.toISOString(),
    version: p.version,
  };
}
