import type { Asset } from './asset';
import { effectiveStatus, isFinal, Payment } from './payment';

// The payment as events carry it (webhook receivers drop stale events by `version`).
export function paymentSnapshot(p: Payment, asset: Asset | null) {
  const status = effectiveStatus(p);
  return {
    paymentId: p.id,
    merchantId: p.merchantId,
    referenceId: p.referenceId,
    status,
    isFinal: isFinal(status),
    failureCode: p.failureCode,
    amount: { unit: `iso4217/${p.currency}`, value: p.amountMinor.toString() },
    tokenAmount: asset && p.tokenAmount !== null ? { unit: `caip19/${asset.id}`, value: p.tokenAmount.toString() } : null,
    txId: p.txHash,
    cancelledReason: p.cancelledReason,
    refundedAt: p.refundedAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
    expiresAt: Math.floor(p.expiresAt.getTime() / 1000),
    version: p.version,
  };
}
