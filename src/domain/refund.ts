// Refunds (docs/ledger.md "Refunds"): a refund's amount is in the payment's own currency and minor units; the tokens
// it sends back are the payment's token amount in proportion, so that the refunds of a whole payment send back
// exactly what the buyer paid, however it was split.

export const REFUND_STATUSES = ['requires_funding', 'pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
/** Not ended: waiting for funds, or on its way (its tokens reserved, its transfer to be sent or sent). */
export const REFUND_OPEN = ['pending', 'requires_funding'] as const satisfies readonly RefundStatus[];

/** What counts as refunded (or on its way back): every refund but a failed one. */
export const REFUND_COUNTED = ['requires_funding', 'pending', 'succeeded'] as const satisfies readonly RefundStatus[];

export interface Refunded {
  /** Of the refunds not failed: their amounts in minor units and in tokens. */
  minor: bigint;
  tokens: bigint;
}

/**
 * The tokens a refund of `minor` sends back, after `before` was refunded, of a payment of `amountMinor` paid with
 * `tokenAmount`; null when it would refund more than is left.
 */
export function refundTokens(payment: { amountMinor: bigint; tokenAmount: bigint }, before: Refunded, minor: bigint): bigint | null {
  const total = before.minor + minor;
  if (minor <= 0n || total > payment.amountMinor) return null;
  const left = payment.tokenAmount - before.tokens;
  if (total === payment.amountMinor) return left;
  const share = (payment.tokenAmount * total) / payment.amountMinor - (payment.tokenAmount * before.minor) / payment.amountMinor;
  return share < left ? share : left;
}

/** A refund as stored. */
export interface RefundRow {
  id: string;
  paymentId: string;
  accountId: string;
  amountMinor: bigint;
  currency: string;
  tokenAsset: string;
  tokenAmount: bigint;
  recipient: string;
  status: RefundStatus;
  failureCode: string | null;
  chainTxId: string | null;
  txHash: string | null;
  /** The payment that funds it (created when the account's balance did not cover it). */
  fundingPaymentId: string | null;
  createdAt: Date;
}

/** The fiat amount (minor units of a currency with `exponent` decimals) of at least `tokens` of a token pegged 1:1 to it. */
export function fundingMinor(tokens: bigint, tokenDecimals: number, exponent: number): bigint {
  if (tokenDecimals < exponent) return tokens * 10n ** BigInt(exponent - tokenDecimals);
  const per = 10n ** BigInt(tokenDecimals - exponent);
  return (tokens + per - 1n) / per;
}
