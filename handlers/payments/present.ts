import type { Asset } from '../../src/domain/asset';
import { CURRENCIES, majorUnits } from '../../src/domain/money';
import type { ListStats } from '../../src/usecases/payments/lists';
import { effectiveStatus, isFinal, Payment, POLL_IN_MS } from '../../src/domain/payment';
import type { ApiVersion } from '../../src/domain/versions';
import { settlementProblem } from '../../src/domain/settlementState';
import { jsonNumber } from '../../src/wire/jsonNumber';
import { livemodeOf } from '../../src/wire/livemode';
import type { components } from '../../generated/2026-02-18/types';

type FailureCode = NonNullable<components['schemas']['FailureCode']>;

// Wire shapes of a payment, shared by the merchant and gateway operations. Each carries `livemode` at a version
// whose objects do (src/wire/livemode.ts).

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

function assetDisplay(a: Asset) {
  return {
    assetName: a.name,
    assetSymbol: a.symbol,
    decimals: a.decimals,
    ...(a.iconUrl ? { iconUrl: a.iconUrl } : {}),
    ...(a.networkIconUrl ? { networkIconUrl: a.networkIconUrl } : {}),
    networkName: a.networkName,
  };
}

export const tokenAmount = (a: Asset, value: bigint) => ({ unit: `caip19/${a.id}`, value: value.toString(), display: assetDisplay(a) });

export const fiatAmount = (p: Payment) => ({
  unit: `iso4217/${p.currency}`,
  value: p.amountMinor.toString(),
  display: { assetName: p.currency, assetSymbol: p.currency, decimals: CURRENCIES[p.currency] ?? 2 },
});

/** `info` is populated when succeeded, null otherwise (docs/decisions.md, seed §2.2). */
function paymentInfo(p: Payment, asset: Asset | null) {
  if (p.status !== 'succeeded' || !asset || p.tokenAmount === null || !p.txHash) return null;
  return { optionAmount: tokenAmount(asset, p.tokenAmount), txId: p.txHash };
}

export function statusView(p: Payment, asset: Asset | null, version: ApiVersion) {
  const status = effectiveStatus(p);
  const final = isFinal(status);
  return {
    status,
    isFinal: final,
    pollInMs: final ? null : POLL_IN_MS,
    failureCode: status === 'failed' ? (p.failureCode as FailureCode | null) : null,
    info: paymentInfo(p, asset),
    ...livemodeOf(version, p.accountId),
  };
}

export function createdView(p: Payment, publicBaseUrl: string, version: ApiVersion) {
  return {
    paymentId: p.id,
    status: p.status,
    expiresAt: unix(p.expiresAt),
    isFinal: false,
    pollInMs: POLL_IN_MS,
    gatewayUrl: `${publicBaseUrl}/?pid=${p.id}`,
    ...livemodeOf(version, p.accountId),
  };
}

/** Payment details' `settlement`: `successful` once settled, `pending` or `failed` while it is not going well (settlementState.ts). */
function settlementView(p: Payment, asset: Asset | null) {
  if (p.settlementTxHash && asset)
    return {
      successful: {
        amount: { unit: `caip19/${asset.id}`, value: (p.settlementAmount ?? p.tokenAmount ?? 0n).toString() },
        txId: p.settlementTxHash,
      },
    };
  const problem = settlementProblem(p);
  if (!problem) return null;
  if (problem.status === 'pending')
    return { pending: { ...problem, nextAttemptAt: problem.nextAttemptAt ? problem.nextAttemptAt.toISOString() : null } };
  return { failed: { ...problem, heldAt: problem.heldAt.toISOString() } };
}

export function detailsView(p: Payment, asset: Asset | null, version: ApiVersion) {
  const s = statusView(p, asset, version);
  return {
    paymentId: p.id,
    merchantId: p.merchantId,
    referenceId: p.referenceId,
    status: s.status,
    failureCode: s.failureCode,
    amount: { unit: `iso4217/${p.currency}`, value: p.amountMinor.toString() },
    info: s.info,
    settlement: settlementView(p, asset),
    createdAt: p.createdAt.toISOString(),
    expiresAt: unix(p.expiresAt),
    refundedAt: p.refundedAt?.toISOString() ?? null,
    ...livemodeOf(version, p.accountId),
  };
}

function listItem(p: Payment, asset: Asset | null, merchant: { name: string; iconUrl: string | null }, version: ApiVersion) {
  const status = effectiveStatus(p);
  return {
    paymentId: p.id,
    merchant: { id: p.merchantId, name: merchant.name, ...(merchant.iconUrl ? { iconUrl: merchant.iconUrl } : {}) },
    referenceId: p.referenceId,
    status,
    isTerminal: isFinal(status),
    fiatAmount: fiatAmount(p),
    ...(asset && p.tokenAmount !== null ? { tokenAmount: tokenAmount(asset, p.tokenAmount) } : {}),
    ...(p.buyerAccount ? { buyer: { accountCaip10: p.buyerAccount } } : {}),
    ...(asset && p.txHash ? { transaction: { networkId: asset.chainId, hash: p.txHash } } : {}),
    ...(asset && p.settledAt && p.feeAmount !== null ? { fees: { total: tokenAmount(asset, p.feeAmount) } } : {}),
    settlement: {
      settled: Boolean(p.settledAt),
      ...(asset && p.settledAt && p.settlementAmount !== null ? { amount: tokenAmount(asset, p.settlementAmount) } : {}),
      ...(p.settlementTxHash ? { txHash: p.settlementTxHash } : {}),
    },
    createdAt: p.createdAt.toISOString(),
    lastUpdatedAt: p.updatedAt.toISOString(),
    // Absent until settled, as the hosted contract has it (not null).
    ...(p.settledAt ? { settledAt: p.settledAt.toISOString() } : {}),
    ...livemodeOf(version, p.accountId),
  };
}

/** The answer to a cancel (merchant or buyer). */
export function cancelledView(p: Payment, reason: 'cancelled_by_merchant' | 'cancelled_by_user', version: ApiVersion) {
  return {
    paymentId: p.id,
    status: 'cancelled' as const,
    cancelledReason: reason,
    cancelledAt: p.cancelledAt!.toISOString(),
    ...livemodeOf(version, p.accountId),
  };
}

/** A currency's minor units as the JSON number of its major unit, written exactly: USD 4050 is `40.5`. */
const majorNumber = (minor: bigint, currency: string) => jsonNumber(majorUnits(minor, CURRENCIES[currency] ?? 2));

/** Stats with revenue in each currency's major unit, JSON numbers (the hosted contract's type). */
export const statsView = (s: ListStats) => ({
  totalRevenue: s.totalRevenue.map((r) => ({ amount: majorNumber(r.minor, r.currency), currency: r.currency })),
  totalTransactions: s.totalTransactions,
  totalCustomers: s.totalCustomers,
});

/**
 * The deprecated list keeps the older snake_case shape, typed as the hosted contract has it: `fiat_amount` a JSON
 * integer of minor units (written from the digits), `wallet_name` a string (empty: the service does not know it).
 */
export function legacyListItem(p: Payment, asset: Asset | null, version: ApiVersion) {
  const status = effectiveStatus(p);
  return {
    payment_id: p.id,
    merchant_id: p.merchantId,
    reference_id: p.referenceId,
    status,
    is_terminal: isFinal(status),
    wallet_name: '',
    chain_id: asset?.chainId ?? null,
    buyer_caip10: p.buyerAccount,
    token_caip19: asset?.id ?? null,
    tx_hash: p.txHash,
    nonce: null,
    token_amount: p.tokenAmount?.toString() ?? null,
    fiat_amount: jsonNumber(p.amountMinor.toString()),
    fiat_currency: p.currency,
    created_at: p.createdAt.toISOString(),
    last_updated_at: p.updatedAt.toISOString(),
    settled_at: p.settledAt?.toISOString() ?? null,
    settlement_status: p.settledAt ? 'settled' : null,
    settlement_tx_hash: p.settlementTxHash,
    token_symbol: asset?.symbol ?? null,
    token_decimals: asset?.decimals ?? null,
    token_logo: asset?.iconUrl ?? null,
    chain_logo: asset?.networkIconUrl ?? null,
    wallet_logo: null,
    ...livemodeOf(version, p.accountId),
  };
}

/** The body of both current payment lists. */
export function listBody(
  page: {
    rows: { payment: Payment; asset: Asset | null; merchantName: string; merchantIconUrl: string | null }[];
    nextCursor: string | null;
    stats: ListStats;
  },
  version: ApiVersion,
) {
  return {
    data: page.rows.map((r) => listItem(r.payment, r.asset, { name: r.merchantName, iconUrl: r.merchantIconUrl }, version)),
    nextCursor: page.nextCursor,
    stats: statsView(page.stats),
  };
}
