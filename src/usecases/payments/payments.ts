import type { Db } from '../../db/knex';
import type { Config } from '../../config';
import { AppError } from '../../domain/errors';
import { ownedBy } from '../../domain/mode';
import { newId } from '../../domain/ids';
import { MoneyError, parseFiatAmount } from '../../domain/money';
import { effectiveStatus, isFinal, MAX_POLL_MS, Payment } from '../../domain/payment';
import type { ChangeHub } from '../../events/changeHub';
import * as repo from '../../db/payments';
import { ownedMerchant } from '../merchants/merchants';

// The merchant side of payments. Account boundary: another account's payment or merchant is 403; a
// payment of another merchant of the same account is 404 (Merchant-Id names the merchant it is read as).

const MAX_TTL_SECONDS = 30 * 24 * 3600;

export interface CreatePaymentInput {
  referenceId: string;
  amount: { unit: string; value: string };
  /** null: the default, as if absent (the hosted contract allows it). */
  expiresAt?: number | null;
  checkout?: { successUrl: string; errorUrl: string } | null;
}

export async function createPayment(
  db: Db,
  config: Pick<Config, 'defaultPaymentTtlSeconds'>,
  accountId: string,
  merchantId: string,
  input: CreatePaymentInput,
  /** The chains (CAIP-2) that take payments of the caller's mode (ChainWork.settlingChains). */
  servedChains: string[],
): Promise<Payment> {
  let amount;
  try {
    amount = parseFiatAmount(input.amount.unit, input.amount.value);
  } catch (e) {
    const field = /unit|currency/.test((e as MoneyError).message) ? '/amount/unit' : '/amount/value';
    throw new AppError('params_validation', undefined, [{ field, message: (e as MoneyError).message }]);
  }
  const draft: Payment = {
    id: newId('pay'),
    accountId,
    merchantId,
    referenceId: input.referenceId,
    currency: amount.currency,
    amountMinor: amount.minor,
    status: 'requires_action',
    failureCode: null,
    cancelledReason: null,
    cancelledAt: null,
    // Placeholders: the times are the database's, set by the statement that stores the payment (its event's
    // times too). Until then the draft is open (expiry after asOf), so the event records requires_action.
    expiresAt: new Date(1),
    createdAt: new Date(0),
    updatedAt: new Date(0),
    refundedAt: null,
    version: 1,
    checkout: input.checkout ?? null,
    tokenAsset: null,
    tokenAmount: null,
    buyerAccount: null,
    txHash: null,
    settlementTxHash: null,
    settledAt: null,
    feeAmount: null,
    settlementAmount: null,
    settlementAttempts: 0,
    settlementNextAt: null,
    settlementHeldAt: null,
    settlementHoldReason: null,
    optionId: null,
    asOf: new Date(0),
  };
  // One round trip: the statement judges the conditions of creation and stores the payment only when all hold.
  const outcome = await repo.createPaymentIfAllowed(db, draft, {
    expiresAt: input.expiresAt ?? null,
    ttlSeconds: config.defaultPaymentTtlSeconds,
    maxTtlSeconds: MAX_TTL_SECONDS,
    servedChains,
  });
  if (outcome.created) return outcome.created;
  throw REFUSALS[outcome.refusal](outcome.merchantStatus, amount.currency);
}

/** The error clients are told for each refusal of the creation statement (db/payments/creation.ts judges; this words it). */
const REFUSALS: Record<repo.CreationRefusal, (merchantStatus: string | null, currency: string) => AppError> = {
  expires_at: () =>
    new AppError('params_validation', undefined, [
      { field: '/expiresAt', message: 'must be a Unix time in the future, at most 30 days ahead' },
    ]),
  merchant_not_found: () => new AppError('merchant_not_found'),
  other_account: () => new AppError('forbidden', 'This merchant belongs to another account.'),
  merchant_deleted: () => new AppError('invalid_state', 'The merchant is deleted and cannot take payments.'),
  merchant_inactive: (status) => new AppError('invalid_state', `The merchant is ${status} and cannot take payments.`),
  no_settlement: (_, currency) =>
    new AppError('invalid_state', `The merchant has no crypto settlement for an asset pegged to ${currency}.`),
  // 409 invalid_state on the hosted contract's createPayment (reason asset_not_served: src/http/hostedCodes.ts).
  not_served: (_, currency) =>
    new AppError(
      'asset_not_served',
      `None of the merchant's crypto settlements pegged to ${currency} is on a chain this service takes payments on: nobody could pay it.`,
    ),
};

/** The payment as the caller's merchant sees it, with a stale non-final status brought up to date. */
export async function paymentForMerchant(db: Db, accountId: string, merchantId: string, paymentId: string): Promise<repo.PaymentWithAsset> {
  const found = await repo.findPayment(db, paymentId);
  const missing = () => new AppError('payment_not_found');
  ownedBy(found?.payment, accountId, missing, 'This payment belongs to another account.');
  if (found!.payment.merchantId !== merchantId) {
    // Read as another merchant: 403 if that merchant is not the caller's, else this merchant has no such payment.
    await ownedMerchant(db, accountId, merchantId, true);
    throw new AppError('payment_not_found');
  }
  return expireIfDue(db, found!);
}

/** A payment past its expiry is expired whether or not the sweeper got to it yet. */
export async function expireIfDue(db: Db, pw: repo.PaymentWithAsset): Promise<repo.PaymentWithAsset> {
  if (effectiveStatus(pw.payment) === pw.payment.status) return pw;
  return (await repo.applyTransition(db, pw.payment.id, 'expire')) ?? (await repo.findPayment(db, pw.payment.id))!;
}

/**
 * Long-poll: answers at once when final or when maxPollMs is 0/absent; otherwise holds until the payment
 * changes (woken by the change hub), it expires, or the capped wait runs out. Waiting costs no queries,
 * and the waiters woken by one change share a single read.
 */
export async function pollStatus(
  db: Db,
  hub: ChangeHub,
  paymentId: string,
  load: () => Promise<repo.PaymentWithAsset>,
  maxPollMs?: number,
) {
  if (!maxPollMs) return load();
  const sub = hub.subscribe(paymentId); // before the first read: no change can slip between read and wait
  try {
    const first = await load(); // authorises the caller
    if (isFinal(first.payment.status)) return first;
    // Only an open payment expires (by the database's clock): a processing one past its expiresAt waits for the chain like any other.
    const untilExpiry =
      first.payment.status === 'requires_action' ? first.payment.expiresAt.getTime() - first.payment.asOf.getTime() + 5 : Infinity;
    await sub.wait(Math.min(maxPollMs, MAX_POLL_MS, Math.max(untilExpiry, 0)));
    return await hub.read(paymentId, async () => expireIfDue(db, (await repo.findPayment(db, paymentId))!));
  } finally {
    sub.cancel();
  }
}

export async function cancelByMerchant(db: Db, accountId: string, merchantId: string, paymentId: string): Promise<Payment> {
  await paymentForMerchant(db, accountId, merchantId, paymentId);
  const done = await repo.applyTransition(db, paymentId, 'merchant_cancel', { cancelledReason: 'cancelled_by_merchant' });
  if (!done) {
    const now = await paymentForMerchant(db, accountId, merchantId, paymentId);
    throw new AppError('invalid_state', `A ${now.payment.status} payment cannot be cancelled.`);
  }
  return done.payment;
}
