import type { Db } from '../../db/knex';
import { AppError } from '../../domain/errors';
import { resolveGatewayPaymentId } from '../../domain/gatewayId';
import { effectiveStatus, Payment } from '../../domain/payment';
import * as repo from '../../db/payments';
import { findMerchant } from '../../db/merchantsRepo';
import { expireIfDue } from '../payments/payments';
import { Mode, modeOfScope } from '../../domain/mode';

// The gateway's view of a payment. Not scoped to an account: the payment id in the buyer link is the
// capability a wallet holds.

export async function gatewayPayment(db: Db, publicBaseUrl: string, rawId: string): Promise<repo.PaymentWithAsset> {
  const id = resolveGatewayPaymentId(rawId, publicBaseUrl);
  const found = id ? await repo.findPayment(db, id) : undefined;
  if (!found) throw new AppError('payment_not_found');
  return expireIfDue(db, found);
}

/**
 * A gateway credential acts only on payments of its own mode (docs/testmode.md): a payment of the other mode
 * answers 404 exactly like an unknown id. Checked once per gateway request, before its handler runs.
 */
export async function checkGatewayMode(db: Db, publicBaseUrl: string, rawId: string, mode: Mode): Promise<void> {
  const id = resolveGatewayPaymentId(rawId, publicBaseUrl);
  const found = id ? await repo.findPayment(db, id) : undefined;
  if (found && modeOfScope(found.payment.accountId) !== mode) throw new AppError('payment_not_found');
}

export async function gatewayPaymentWithMerchant(db: Db, publicBaseUrl: string, rawId: string) {
  const pw = await gatewayPayment(db, publicBaseUrl, rawId);
  const merchant = (await findMerchant(db, pw.payment.merchantId))!;
  return { ...pw, merchant: { name: merchant.name, iconUrl: merchant.iconUrl } };
}

/** 410 when expired, 409 otherwise: the payment no longer takes buyer actions. */
export function notOpen(p: Payment): AppError {
  const s = effectiveStatus(p);
  return s === 'expired' ? new AppError('payment_expired') : new AppError('invalid_state', `The payment is ${s}.`);
}

export async function cancelByBuyer(db: Db, publicBaseUrl: string, rawId: string): Promise<Payment> {
  const { payment } = await gatewayPayment(db, publicBaseUrl, rawId);
  const done = await repo.applyTransition(db, payment.id, 'buyer_cancel', { cancelledReason: 'cancelled_by_user' });
  if (!done) throw notOpen((await gatewayPayment(db, publicBaseUrl, payment.id)).payment);
  return done.payment;
}

export async function declineByBuyer(db: Db, publicBaseUrl: string, rawId: string): Promise<repo.PaymentWithAsset> {
  const { payment } = await gatewayPayment(db, publicBaseUrl, rawId);
  const done = await repo.applyTransition(db, payment.id, 'decline', { failureCode: 'declined_user' });
  if (!done) throw notOpen((await gatewayPayment(db, publicBaseUrl, payment.id)).payment);
  return done;
}
