import { isNativeAsset } from '../../domain/caip';
import { isLivemode } from '../../domain/mode';
import { feeInTokenUnits, pegToTokenUnits } from '../../domain/money';
import type { HostedFacts, PaymentEvent, PaymentEventRecord } from '../../domain/paymentEvent';
import type { WebhookEventType } from '../../domain/webhook';

// Payment events in the hosted WalletConnect Pay service's webhook payload contract, `api_version` 2026-05-18, for
// endpoints whose payloadFormat asks for it (docs/webhooks.md, "The hosted 2026-05-18 format"): the envelope
// {id, type, api_version, created_at, data}, `data` a full snake_case snapshot of the payment as of the event, with
// one object per stage the payment has reached (null until then). The same stored event as our format renders
// (src/wire/events.ts); the facts its record lacks come from the payment's own events and row (HostedFacts, read by
// src/db/webhooks/hostedFacts.ts). Amounts are decimal strings of the smallest unit, as in our format.

const HOSTED_API_VERSION = '2026-05-18';

interface Amount {
  unit: string;
  value: string;
}

export interface HostedEvent {
  id: string;
  type: WebhookEventType;
  api_version: typeof HOSTED_API_VERSION;
  created_at: string;
  data: {
    payment_id: string;
    merchant_id: string;
    live: boolean;
    payment_state_version: number;
    reference_id: string;
    status: PaymentEventRecord['status'];
    amount: Amount;
    created_at: string;
    expires_at: string;
    processing: {
      processing_at: string;
      option_amount: Amount;
      fee: {
        kind: 'base_plus_percent';
        base_amount: Amount;
        percent: { numerator: string; denominator: string };
        percent_amount: Amount;
        total_amount: Amount;
      };
      settlement_amount: Amount;
      buyer_caip10: string | null;
      chain_caip2: string;
    } | null;
    success: { succeeded_at: string; tx_id: string | null } | null;
    failed: { failed_at: string; failure_code: string | null } | null;
    cancelled: { cancelled_at: string; reason: string | null } | null;
    expired: { expired_at: string } | null;
    settled: { settled_at: string; amount: Amount; tx_id: string | null } | null;
  };
}

type Data = HostedEvent['data'];

/** The committed option's stage: what the buyer pays, the fee on it and what the merchant is to receive. */
function processingStage(r: PaymentEventRecord, f: HostedFacts, at: string): Data['processing'] {
  if (r.tokenAsset === null || r.tokenAmount === null) return null;
  const unit = `caip19/${r.tokenAsset}`;
  const amount = BigInt(r.tokenAmount);
  const decimals = f.decimals ?? 0;
  // The chain's own coin pegs to nothing: its base fee converts at the payment's own rate (src/domain/money.ts).
  const priced = isNativeAsset(r.tokenAsset) ? BigInt(r.amountMinor) : undefined;
  const pegged = () => pegToTokenUnits({ currency: r.currency, minor: f.fee.baseMinor }, decimals);
  const base = f.fee.baseMinor > 0n ? (priced ? (f.fee.baseMinor * amount) / priced : pegged()) : 0n;
  const percent = (amount * BigInt(f.fee.bps)) / 10_000n;
  const total = feeInTokenUnits(amount, r.currency, decimals, f.fee.baseMinor, f.fee.bps, priced);
  const of = (v: bigint): Amount => ({ unit, value: v.toString() });
  return {
    processing_at: at,
    option_amount: of(amount),
    fee: {
      kind: 'base_plus_percent',
      base_amount: of(base),
      percent: { numerator: String(f.fee.bps), denominator: '10000' },
      percent_amount: of(percent),
      total_amount: of(total),
    },
    settlement_amount: of(amount - total),
    buyer_caip10: f.buyerAccount,
    chain_caip2: f.chainId ?? r.tokenAsset.split('/')[0],
  };
}

export function renderHostedEvent(e: PaymentEvent, f: HostedFacts): HostedEvent {
  const r = e.record;
  const eventAt = e.createdAt.toISOString();
  const t = f.stageTimes;
  // A stage's time is that of the event that began it; an event this one's facts imply but that was not written
  // (a payment paid without a processing step, an expiry seen before the sweeper's event) takes this event's time.
  const at = (type: WebhookEventType) => t[type] ?? eventAt;
  const processing = processingStage(r, f, at('payment.processing'));
  const settledAt = t['payment.settled'];
  return {
    id: e.id,
    type: e.type,
    api_version: HOSTED_API_VERSION,
    created_at: eventAt,
    data: {
      payment_id: r.paymentId,
      merchant_id: r.merchantId,
      live: isLivemode(e.accountId),
      payment_state_version: r.version,
      reference_id: r.referenceId,
      status: r.status,
      amount: { unit: `iso4217/${r.currency}`, value: r.amountMinor },
      created_at: r.createdAt,
      expires_at: r.expiresAt,
      processing,
      success: r.status === 'succeeded' ? { succeeded_at: at('payment.succeeded'), tx_id: r.txHash } : null,
      failed: r.status === 'failed' ? { failed_at: at('payment.failed'), failure_code: r.failureCode } : null,
      cancelled: r.status === 'cancelled' ? { cancelled_at: at('payment.cancelled'), reason: r.cancelledReason } : null,
      expired: r.status === 'expired' ? { expired_at: t['payment.expired'] ?? r.expiresAt } : null,
      settled:
        settledAt && processing
          ? {
              settled_at: settledAt,
              amount: { unit: processing.option_amount.unit, value: f.settledAmount ?? processing.settlement_amount.value },
              tx_id: f.settlementTxHash,
            }
          : null,
    },
  };
}
