import { inTransaction, type Db, type Tx } from '../../db/knex';
import * as repo from '../../db/refundsRepo';
import { writeRefundEvent } from '../../db/refundEvents';
import { findPayment, markRefunded } from '../../db/payments';
import { refundableByHolder } from '../../db/ledger';
import { isNativeAsset, parseAccountId, parseAssetId } from '../../domain/caip';
import { ChainUnavailable, type ChainWork } from '../../domain/chain';
import { refundLimitRefusal, refundMinimumMinor } from '../../domain/refundLimits';
import type { RefundSettings } from '../../config/refunds';
import { decodeCursor, encodeCursor, isCursorTime } from '../../domain/cursor';
import { AppError } from '../../domain/errors';
import { ownedBy } from '../../domain/mode';
import { isFinal } from '../../domain/payment';
import { newId } from '../../domain/ids';
import { CURRENCIES, MoneyError, parseFiatAmount } from '../../domain/money';
import { fundingMinor, refundTokens, type RefundRow } from '../../domain/refund';
import { createPayment, paymentForMerchant } from './payments';

// Refunds, merchant side (docs/ledger.md "Refunds"). A refund sends the buyer's tokens back from the collector that
// received them, funded from the account's available balance there (never another account's money); the relayer's
// refund step (src/usecases/relayer/refundSends.ts) sends it. Refunds of one payment are decided one at a time under the
// payment's row lock, so concurrent partial refunds never add up to more than was paid.

export interface RefundRequest {
  paymentId: string;
  /** Preview: a partial refund, in the payment's currency and minor units; absent: all that is left. */
  amount?: { unit: string; value: string };
}

/** The limits a refund is held to (docs/limits.md "Refunds"), and the chain whose fees price its transfer. */
export interface RefundRules {
  settings: RefundSettings;
  chainWork: Pick<ChainWork, 'fees'>;
}

/** Creates a refund; `startRefund` (after the request commits) hands it to the relayer. */
export async function createRefund(db: Db, accountId: string, merchantId: string, req: RefundRequest, rules: RefundRules) {
  const pw = await paymentForMerchant(db, accountId, merchantId, req.paymentId);
  // Priced before the payment's row lock: the node is not asked while other refunds of the payment wait.
  const minimumMinor = req.amount && pw.payment.tokenAsset ? await partialMinimum(rules, pw.payment.tokenAsset, pw.payment.currency) : 0n;
  return inTransaction(db, async (trx) => {
    const p = await repo.lockRefundable(trx, req.paymentId);
    if (!p) throw new AppError('payment_not_found');
    if (p.status !== 'succeeded' || p.tokenAmount === null || !p.tokenAsset || !p.buyerAccount)
      throw new AppError('payment_not_succeeded', `A ${p.status} payment cannot be refunded.`);
    const minor = req.amount ? partialAmount(req.amount, p.currency) : p.amountMinor - p.refunded.minor;
    if (minor === 0n) throw new AppError('already_refunded');
    const tokens = refundTokens({ amountMinor: p.amountMinor, tokenAmount: p.tokenAmount }, p.refunded, minor);
    if (tokens === null) throw new AppError(req.amount ? 'refund_exceeds_payment' : 'already_refunded');
    const left = p.amountMinor - p.refunded.minor;
    const limits = { maxPerPayment: rules.settings.maxPerPayment, minimumMinor };
    const refusal = refundLimitRefusal({ minor, left, count: p.refundCount, currency: p.currency }, limits);
    if (refusal) throw new AppError(refusal.code, refusal.message);
    // Whether the account's balance at one collector covers it now; the relayer decides again under that collector's lock.
    const covered = ((await refundableByHolder(trx, p.accountId, p.tokenAsset, req.paymentId))[0]?.amount ?? 0n) >= tokens;
    const refund = await repo.insertRefund(trx, {
      id: newId('ref'),
      paymentId: req.paymentId,
      accountId: p.accountId,
      amountMinor: minor,
      currency: p.currency,
      tokenAsset: p.tokenAsset,
      tokenAmount: tokens,
      recipient: parseAccountId(p.buyerAccount).address,
      status: covered ? 'pending' : 'requires_funding',
    });
    const fundingPaymentId = covered ? null : await fundRefund(trx, p, refund);
    await writeRefundEvent(trx, refund.id, 'refund.created');
    // Refunded in full: the payment shows refundedAt, with its payment.refunded event.
    const whole = p.refunded.minor + minor === p.amountMinor;
    const payment = whole ? ((await markRefunded(trx, req.paymentId)) ?? (await findPayment(trx, req.paymentId))) : undefined;
    return { refund: { ...refund, fundingPaymentId }, refundedAt: payment?.payment.refundedAt ?? null };
  });
}

/**
 * The smallest partial refund of a payment in `tokenAsset` and `currency`: the operator's floor, or one transfer's
 * gas at the chain's fees now, whichever is larger.
 */
async function partialMinimum(rules: RefundRules, tokenAsset: string, currency: string): Promise<bigint> {
  const chainId = parseAssetId(tokenAsset).chain.id;
  let weiPerGas: bigint;
  try {
    weiPerGas = (await rules.chainWork.fees(chainId)).maxFeePerGas;
  } catch (e) {
    if (!(e instanceof ChainUnavailable)) throw e;
    throw new AppError('service_unavailable', "The chain's RPC node cannot be reached to price the refund; try again shortly.", undefined, {
      'Retry-After': '2',
    });
  }
  const s = rules.settings;
  return refundMinimumMinor(s.minMinor[currency] ?? 0n, weiPerGas, s.nativePriceMinor(chainId, currency));
}

/** How long a refund's funding payment may be paid. */
const FUNDING_TTL_S = 24 * 3600;

/** What funding a refund needs of its payment: the merchant that takes the funding payment, its currency, the token's decimals. */
type Funded = Pick<repo.RefundablePayment, 'accountId' | 'merchantId' | 'currency' | 'decimals' | 'amountMinor' | 'tokenAmount'>;

/**
 * A refund the account's balance does not cover: a payment of the missing amount (the largest the refund may spend
 * at one collector counts, its earlier funding included), of the same merchant, that anyone pays through the gateway
 * in the refund's token; its tokens are earmarked for the refund and not settled, and the refund then goes out. Null
 * when nothing is missing, or when the merchant cannot take payments any more (the refund waits for the account's
 * balance).
 */
async function fundRefund(trx: Tx, p: Funded, refund: RefundRow): Promise<string | null> {
  if (p.decimals === null) return null;
  const best = (await refundableByHolder(trx, p.accountId, refund.tokenAsset, refund.paymentId, { refundId: refund.id }))[0]?.amount ?? 0n;
  if (best >= refund.tokenAmount) return null;
  const short = refund.tokenAmount - best;
  // The chain's own coin pegs to nothing: what is missing converts at the refunded payment's own rate, rounded up (the
  // funding is priced from the feed when paid; a price moved down since leaves it short, and another is asked then).
  const minor =
    isNativeAsset(refund.tokenAsset) && p.tokenAmount
      ? (short * p.amountMinor + p.tokenAmount - 1n) / p.tokenAmount
      : fundingMinor(short, p.decimals, CURRENCIES[p.currency]);
  const amount = { unit: `iso4217/${p.currency}`, value: minor.toString() };
  const ttl = { defaultPaymentTtlSeconds: FUNDING_TTL_S };
  // Paid in the refund's token only (src/usecases/gateway/options.ts), on the chain the refunded payment was paid on.
  const chain = refund.tokenAsset.split('/')[0];
  const funding = await createPayment(trx, ttl, p.accountId, p.merchantId, { referenceId: `refund:${refund.id}`, amount }, [chain]).catch(
    (e: unknown) => {
      if (e instanceof AppError) return null;
      throw e;
    },
  );
  if (!funding) return null;
  await repo.insertFunding(trx, refund.id, funding.id);
  return funding.id;
}

/**
 * A refund the relayer found short at every collector (docs/ledger.md "Funding"): unless a funding payment of it can
 * still be paid, another of what it lacks now. Its earlier funding, paid, stays earmarked for it: this happens when the
 * balance that funding was sized against moved before it was paid, or it was paid at another collector than the rest.
 * After `maxPayments` funding payments that ended unpaid, none more: `exhausted`, the refund is to fail (nobody funds
 * it, and a payment a day forever would fill the merchant's list). Decided under the refund's row lock, which crediting
 * a funding payment takes too: `trx` holds it (waitForFunds in src/usecases/relayer/refundSends.ts).
 */
export async function fundShortRefund(trx: Tx, refund: RefundRow, maxPayments: number): Promise<string | 'exhausted' | null> {
  const found = await findPayment(trx, refund.paymentId);
  if (!found?.asset) return null;
  const waiting = await repo.lockAwaitingFunds(trx, refund.id);
  if (!waiting || (waiting.fundingStatus !== null && !isFinal(waiting.fundingStatus))) return null;
  if (waiting.fundingStatus !== null && (await repo.unpaidFundings(trx, refund.id)) >= maxPayments) return 'exhausted';
  return fundRefund(trx, { ...found.payment, decimals: found.asset.decimals }, refund);
}

function partialAmount(amount: { unit: string; value: string }, currency: string): bigint {
  try {
    const a = parseFiatAmount(amount.unit, amount.value);
    if (a.currency !== currency) throw new MoneyError(`must be the payment's currency, iso4217/${currency}`);
    return a.minor;
  } catch (e) {
    const field = /unit|currency/.test((e as MoneyError).message) ? '/amount/unit' : '/amount/value';
    throw new AppError('params_validation', undefined, [{ field, message: (e as MoneyError).message }]);
  }
}

/** The refunds payment details show (spec PaymentDetails `refunds`): the latest, bounded as the spec's maxItems. */
const DETAILS_REFUNDS = 100;

/**
 * A payment's refunds as its details show them: what has been refunded (refunds not failed, in its currency's minor
 * units and in tokens), and the latest refunds, each as it stands now, oldest first.
 */
export async function refundsOfPayment(db: Db, paymentId: string) {
  const { rows, totals } = await repo.latestRefundsOfPayment(db, paymentId, DETAILS_REFUNDS);
  return { refunded: totals, refunds: rows };
}

/** A refund as its merchant reads it. */
export async function refundForMerchant(db: Db, accountId: string, merchantId: string, refundId: string) {
  const missing = () => new AppError('refund_not_found');
  const r = ownedBy(await repo.findRefund(db, refundId), accountId, missing, 'This refund belongs to another account.');
  const pw = await paymentForMerchant(db, accountId, merchantId, r.paymentId).catch((e: AppError) => {
    throw e.code === 'payment_not_found' ? new AppError('refund_not_found') : e;
  });
  return { refund: r, payment: pw.payment };
}

type After = { createdAt: string; id: string };
const isAfter = (v: unknown): v is After =>
  typeof v === 'object' && v !== null && isCursorTime((v as After).createdAt) && typeof (v as After).id === 'string';

/** A payment's refunds, oldest first, a page at a time. */
export async function listRefunds(db: Db, accountId: string, merchantId: string, paymentId: string, limit: number, cursor?: string) {
  await paymentForMerchant(db, accountId, merchantId, paymentId);
  const after = cursor === undefined ? undefined : decodeCursor(cursor, isAfter);
  if (after === null) throw new AppError('params_validation', undefined, [{ field: 'cursor', message: 'is not a cursor of this list' }]);
  const rows = await repo.refundsOfPayment(db, paymentId, limit + 1, after);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id }) : null;
  return { data: page, nextCursor };
}
