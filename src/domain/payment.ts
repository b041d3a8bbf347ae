// Payment states and their transitions (docs/decisions.md "Payment transitions"). Final states never change; every transition is
// applied by a conditional UPDATE (from-state in the WHERE clause) so that racing requests cannot both win.

export const PAYMENT_STATUSES = ['requires_action', 'processing', 'succeeded', 'failed', 'expired', 'cancelled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
const FINAL_STATUSES: readonly PaymentStatus[] = ['succeeded', 'failed', 'expired', 'cancelled'];
export const isFinal = (s: PaymentStatus) => FINAL_STATUSES.includes(s);

export type Transition = 'confirm' | 'chain_confirmed' | 'chain_failed' | 'merchant_cancel' | 'buyer_cancel' | 'expire' | 'decline';

export const TRANSITIONS: Record<Transition, { from: PaymentStatus[]; to: PaymentStatus; event: string }> = {
  confirm: { from: ['requires_action'], to: 'processing', event: 'payment.processing' },
  chain_confirmed: { from: ['processing'], to: 'succeeded', event: 'payment.succeeded' },
  chain_failed: { from: ['processing'], to: 'failed', event: 'payment.failed' },
  merchant_cancel: { from: ['requires_action'], to: 'cancelled', event: 'payment.cancelled' },
  buyer_cancel: { from: ['requires_action'], to: 'cancelled', event: 'payment.cancelled' },
  expire: { from: ['requires_action'], to: 'expired', event: 'payment.expired' },
  decline: { from: ['requires_action'], to: 'failed', event: 'payment.failed' },
};

/**
 * What a transition records besides the new status, by transition (the repository maps it to columns):
 * a cancellation its reason (and the database's time), a failure its code, the chain's confirmation the
 * transaction, and a confirm the option the buyer signed.
 */
export type TransitionChanges =
  | { cancelledReason: 'cancelled_by_merchant' | 'cancelled_by_user' }
  | { failureCode: string }
  | { txHash: string }
  | { confirmed: ConfirmedOption }
  | Record<string, never>;

/** The option a buyer confirmed, with the signed authorization the relayer will submit. */
export interface ConfirmedOption {
  optionId: string;
  tokenAsset: string;
  tokenAmount: bigint;
  chainId: string;
  buyerAccount: string;
  txNonce: string;
  signature: string;
  /** Who confirmed (wallet SDK headers), stored as JSON. */
  callerInfo: unknown;
  /** Sealed collected data (travel rule), if the option required it. */
  collectedData: Buffer | null;
}

/** Wait hint for clients polling a payment that is not final. */
export const POLL_IN_MS = 1000;
/** Long-poll cap: a status request never holds longer than this. */
export const MAX_POLL_MS = 30_000;

export interface Payment {
  id: string;
  accountId: string;
  merchantId: string;
  referenceId: string;
  currency: string;
  amountMinor: bigint;
  status: PaymentStatus;
  failureCode: string | null;
  cancelledReason: string | null;
  cancelledAt: Date | null;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  refundedAt: Date | null;
  version: number;
  checkout: { successUrl: string; errorUrl: string } | null;
  // Filled by the gateway once the buyer pays.
  tokenAsset: string | null;
  tokenAmount: bigint | null;
  buyerAccount: string | null;
  txHash: string | null;
  settlementTxHash: string | null;
  settledAt: Date | null;
  /** Collector mode: the service's fee and what was sent to the merchant (token units), once settling. */
  feeAmount: bigint | null;
  settlementAmount: bigint | null;
  /**
   * Collector mode: the settlement transfer's failed attempts so far (0 while none failed), when the next is due,
   * and when and why it was held (after its last allowed attempt, or by an operator).
   */
  settlementAttempts: number;
  settlementNextAt: Date | null;
  settlementHeldAt: Date | null;
  settlementHoldReason: string | null;
  /** The gateway option the buyer confirmed. */
  optionId: string | null;
  /**
   * The database's time when this state was read (or written): expiry is judged against it, never against
   * this process's clock, so every process agrees with the database's own `expires_at <= now()`.
   */
  asOf: Date;
}

/**
 * The one rule of expiry, read by every reader: a payment in a from-state of `expire` whose expiry has passed is
 * in `expire`'s to-state even before the sweeper applied it. effectiveStatus states it in TypeScript; the payments
 * repository builds its SQL from the same transition (db/payments/rows.ts), so the two cannot drift.
 */
export const LAPSE = TRANSITIONS.expire;
/** Whether a payment in this stored status lapses at its expiry. */
export const lapses = (s: PaymentStatus) => LAPSE.from.includes(s);

/** The status a reader must see: a payment past its expiry is expired even before the sweeper ran. */
export function effectiveStatus(p: Pick<Payment, 'status' | 'expiresAt' | 'asOf'>, now: Date = p.asOf): PaymentStatus {
  return lapses(p.status) && p.expiresAt.getTime() <= now.getTime() ? LAPSE.to : p.status;
}
