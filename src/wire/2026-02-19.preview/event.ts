import type { components } from '../../../generated/2026-02-19.preview/types';
import { isFinal } from '../../domain/payment';
import { isLivemode } from '../../domain/mode';
import type { PaymentEvent, PaymentEventRecord, RefundEventRecord } from '../../domain/paymentEvent';
import type { ApiVersion } from '../../domain/versions';

// Events at 2026-02-19.preview (spec/components/schemas/WebhookEvent.yaml, PaymentEventSnapshot.yaml).

export type WebhookEvent = components['schemas']['WebhookEvent'];
export type Snapshot = components['schemas']['PaymentEventSnapshot'];

/** The payment of an event at this version; also what payment_events.data stores until the contract step of migration 20261127090100. */
export function paymentSnapshot(r: PaymentEventRecord, livemode: boolean): Snapshot {
  return {
    paymentId: r.paymentId,
    merchantId: r.merchantId,
    referenceId: r.referenceId,
    status: r.status,
    isFinal: isFinal(r.status),
    failureCode: r.failureCode as Snapshot['failureCode'],
    amount: { unit: `iso4217/${r.currency}`, value: r.amountMinor },
    tokenAmount: r.tokenAsset !== null && r.tokenAmount !== null ? { unit: `caip19/${r.tokenAsset}`, value: r.tokenAmount } : null,
    txId: r.txHash,
    cancelledReason: r.cancelledReason as Snapshot['cancelledReason'],
    refundedAt: r.refundedAt,
    createdAt: r.createdAt,
    expiresAt: Math.floor(Date.parse(r.expiresAt) / 1000),
    version: r.version,
    livemode,
  };
}

type RefundSnapshot = components['schemas']['RefundPreview'];

function refundSnapshot(paymentId: string, r: RefundEventRecord, livemode: boolean): RefundSnapshot {
  return {
    id: r.id,
    paymentId,
    amount: { unit: `iso4217/${r.currency}`, value: r.amountMinor },
    tokenAmount: { unit: `caip19/${r.tokenAsset}`, value: r.tokenAmount },
    status: r.status as RefundSnapshot['status'],
    failureCode: r.failureCode,
    txId: r.txHash,
    createdAt: r.createdAt,
    livemode,
  };
}

export function renderEvent(e: PaymentEvent, apiVersion: ApiVersion): WebhookEvent {
  const { refund } = e.record;
  const livemode = isLivemode(e.accountId);
  const data = {
    payment: paymentSnapshot(e.record, livemode),
    ...(refund ? { refund: refundSnapshot(e.record.paymentId, refund, livemode) } : {}),
  };
  return { id: e.id, type: e.type, createdAt: e.createdAt.toISOString(), apiVersion, livemode, data };
}
