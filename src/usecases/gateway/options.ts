import { modeOfScope } from '../../domain/mode';
import { effectiveStatus, isFinal } from '../../domain/payment';
import { readsOf, type Db } from '../../db/knex';
import type { Config } from '../../config';
import { getAddress, type Hex } from 'viem';
import { ChainUnavailable, type ChainWork } from '../../domain/chain';
import { fundedRefundAsset, refundFundedBy } from '../../db/refundsRepo';
import { refundableByHolder } from '../../db/ledger';
import type { Asset } from '../../domain/asset';
import { AccountId, CaipError, parseAccountId, parseAssetId } from '../../domain/caip';
import { collectDataFor, collectedJson } from '../../domain/collectData';
import { collectLinkTokens, collectScope } from '../../domain/collectLink';
import { buildTransferAuthorization, randomNonce, serialiseTypedData } from '../../domain/eip3009';
import { AppError, Issue } from '../../domain/errors';
import { approveTransaction, buildPermitTransferFrom } from '../../domain/permit2';
import { newId } from '../../domain/ids';
import { pegToTokenUnits } from '../../domain/money';
import { seal, unsealOrNull } from '../../domain/sealed';
import { OPTION_DATA, sealedAt } from '../../db/sealedColumnsRepo';
import { settlementTerms } from '../../db/accountsRepo';
import { collectedByAccount, findOption, payableSettlements, StoredOption, storeCollected } from '../../db/optionsRepo';
import { gatewayPayment, gatewayPaymentWithMerchant, notOpen } from './payments';
import { storeQuotes } from './optionRoom';
import { needsBuyerData } from './confirmRules';
import { checkNativePrice, nativeOffer, nativeTermsReader } from './nativeOption';
import { nativeQuoteOf } from '../../domain/nativeQuote';

// Options: one per (buyer account, merchant settlement asset on that account's chain) that can be paid by
// an EIP-3009 authorization or a Permit2 permit, priced by peg, on a chain this instance settles on. Each is stored as offered;
// the wallet signs its typed data. Collector mode (the default): `ReceiveWithAuthorization` to one of this
// service's relayer keys, which later sends amount minus fee to the merchant. Direct mode (per account):
// `TransferWithAuthorization` straight to the merchant's destination.

/** Time a submitted authorization stays valid after its quote expires (room for the chain submission). */
const SUBMIT_MARGIN_S = 600;
const ETA_S = 5;

export interface OfferedOption extends StoredOption {
  assetInfo: Asset;
  /** Permit2 options whose buyer has not approved Permit2 for the amount: the approve the wallet sends first. */
  approve: ApproveTransaction | null;
}

type ApproveTransaction = ReturnType<typeof approveTransaction>;

/**
 * The typed data the wallet signs, and (Permit2) where the permit's tokens go. EIP-3009: `ReceiveWithAuthorization`
 * to the relayer (collector mode) or `TransferWithAuthorization` to the destination (direct mode). Permit2: a
 * `PermitTransferFrom` whose spender is the relayer, which sends the tokens to itself or to the destination.
 */
function offeredTypedData(
  asset: Asset,
  account: AccountId,
  value: bigint,
  nonce: Hex,
  t: { collector: boolean; relayer: string; destination: string; expiresAt: number },
): { typedData: string; permitTo: string | null } {
  const chainId = Number(account.chain.reference);
  const token = parseAssetId(asset.id).assetReference;
  const to = t.collector ? t.relayer : parseAccountId(t.destination).address;
  const deadline = t.expiresAt + SUBMIT_MARGIN_S;
  if (asset.transferMethod === 'permit2') {
    const permit = buildPermitTransferFrom({ chainId, token, amount: value, spender: t.relayer, nonce, deadline });
    return { typedData: JSON.stringify(permit), permitTo: getAddress(to) };
  }
  const kind = t.collector ? 'ReceiveWithAuthorization' : 'TransferWithAuthorization';
  const auth = buildTransferAuthorization({
    kind,
    domainName: asset.eip712Name!,
    domainVersion: asset.eip712Version!,
    chainId,
    token,
    from: account.address,
    to,
    value,
    validAfter: 0,
    validBefore: deadline,
    nonce,
  });
  return { typedData: serialiseTypedData(auth), permitTo: null };
}

/** The buyer's allowance of `token` to Permit2, read now. */
async function allowanceOf(chainWork: ChainWork, chainId: string, token: string, owner: string): Promise<bigint> {
  try {
    return await chainWork.permit2Allowance(chainId, token, owner);
  } catch (e) {
    if (!(e instanceof ChainUnavailable)) throw e;
    throw new AppError('service_unavailable', "The chain's RPC node cannot be reached; try again shortly.", undefined, {
      'Retry-After': '2',
    });
  }
}

/** The approve a Permit2 option needs first, when the buyer's allowance to Permit2 is below the amount (read now). */
async function approvalNeeded(
  chainWork: ChainWork,
  chainId: string,
  assetId: string,
  owner: string,
  amount: bigint,
): Promise<ApproveTransaction | null> {
  const token = parseAssetId(assetId).assetReference;
  return (await allowanceOf(chainWork, chainId, token, owner)) < amount ? approveTransaction(token, owner) : null;
}

const ALLOWANCE_READS_AT_ONCE = 4;

/**
 * Sets the approve of each Permit2 option of a call. A call may quote 20 accounts, and each read is a round trip to
 * the node: read one after another they held the answer for all of them. So one read per (chain, token, owner), a few
 * at a time, so that one call does not take a node's whole attention either.
 */
async function setApprovals(chainWork: ChainWork, offered: OfferedOption[]): Promise<void> {
  const permits = offered.filter((o) => o.permitTo !== null);
  const readOf = (o: OfferedOption) => `${o.chainId}|${o.asset}|${parseAccountId(o.account).address.toLowerCase()}`;
  const reads = new Map(permits.map((o) => [readOf(o), { o, allowance: 0n }]));
  const queue = [...reads.values()];
  const reader = async () => {
    for (let r = queue.shift(); r; r = queue.shift())
      r.allowance = await allowanceOf(chainWork, r.o.chainId, parseAssetId(r.o.asset).assetReference, parseAccountId(r.o.account).address);
  };
  await Promise.all(Array.from({ length: Math.min(ALLOWANCE_READS_AT_ONCE, queue.length) }, reader));
  for (const o of permits) {
    const owner = parseAccountId(o.account).address;
    o.approve = reads.get(readOf(o))!.allowance < o.tokenAmount ? approveTransaction(parseAssetId(o.asset).assetReference, owner) : null;
  }
}

function parseAccounts(accounts: string[]): AccountId[] {
  const issues: Issue[] = [];
  const parsed = accounts.map((a, i) => {
    try {
      return parseAccountId(a);
    } catch (e) {
      issues.push({ field: `/accounts/${i}`, message: (e as CaipError).message });
      return null;
    }
  });
  if (issues.length) throw new AppError('invalid_account', undefined, issues);
  return parsed as AccountId[];
}

/**
 * Where a refund's funding payment is paid: the collector where the account may spend the most towards the refund
 * (its funding was sized against it, and a refund goes out from one collector), if it is a key of this instance.
 */
export async function fundingCollector(db: Db, chainWork: ChainWork, fundingPaymentId: string): Promise<string | null> {
  const refund = await refundFundedBy(db, fundingPaymentId);
  if (!refund) return null;
  const keys = new Set(chainWork.settlingChains().flatMap((c) => c.relayers.map((r) => getAddress(r))));
  const spendable = await refundableByHolder(db, refund.accountId, refund.tokenAsset, refund.paymentId, { refundId: refund.id });
  return spendable.map((h) => getAddress(h.holder)).find((h) => keys.has(h)) ?? null;
}

/**
 * `callerId`: the gateway caller (key or app id), whose collect link the options get. `options` is null when the
 * payment is final.
 */
export async function offerOptions(db: Db, config: Config, chainWork: ChainWork, rawId: string, accounts: string[], callerId: string) {
  const parsed = parseAccounts(accounts);
  const pw = await gatewayPaymentWithMerchant(db, config.publicBaseUrl, rawId);
  const p = pw.payment;
  // A final payment has nothing left to pay: options null (`[]` is "none for these accounts" of an open payment),
  // with the payment, so that a wallet shows how it ended, as the hosted service answers. Processing stays refused.
  if (isFinal(effectiveStatus(p))) return { ...pw, options: null, collectData: null, etaS: ETA_S };
  if (p.status !== 'requires_action') throw notOpen(p);
  const collect = await needsBuyerData(db, config, p);
  const [settlements, terms, fundsAsset] = await readsOf(db, [
    () => payableSettlements(db, p.merchantId, p.currency),
    () => settlementTerms(db, p.accountId),
    // A refund's funding (docs/ledger.md): paid to a collector, in the refund's token only, whatever the account's mode.
    () => fundedRefundAsset(db, p.id),
  ]);
  const fundingAt = fundsAsset === null ? null : await fundingCollector(db, chainWork, p.id);
  const now = Math.floor(p.asOf.getTime() / 1000); // the database's clock, which checkQuote judges by
  const expiresAt = Math.min(now + config.quoteTtlSeconds, Math.floor(p.expiresAt.getTime() / 1000));
  const paymentExpiresAt = Math.floor(p.expiresAt.getTime() / 1000);
  const nativeTerms = nativeTermsReader(chainWork);
  const seen = new Set<string>();
  const offered: OfferedOption[] = [];
  // Data the buyer already gave to this caller (hosted collect page, or fetch) carries over to a fresh quote.
  const tokens = collect ? collectLinkTokens(config.dataKeys, p.id, callerId) : [];
  const given = collect
    ? await collectedByAccount(
        db,
        p.id,
        tokens.map(collectScope),
        parsed.map((a) => a.id),
      )
    : new Map<string, { optionId: string; sealed: Buffer }>();
  for (const account of parsed) {
    if (seen.has(account.id)) continue;
    seen.add(account.id);
    for (const { asset, destination } of settlements) {
      if (asset.chainId !== account.chain.id || account.chain.namespace !== 'eip155') continue;
      if (fundsAsset !== null && asset.id !== fundsAsset) continue;
      const relayer = fundingAt ?? chainWork.relayerFor(asset.chainId, `${p.id}/${account.id}`, modeOfScope(p.accountId));
      if (!relayer) continue; // not a chain this instance settles on for this payment's mode
      const nonce = randomNonce();
      const quote = { collector: terms.mode === 'collector' || fundsAsset !== null, relayer, destination, expiresAt };
      let value = pegToTokenUnits({ currency: p.currency, minor: p.amountMinor }, asset.decimals);
      let offeredData: { typedData: string; permitTo: string | null };
      if (asset.transferMethod === 'native') {
        // The router forwards the coin to the collector (collector mode, a refund's funding) or the merchant's wallet.
        const to = quote.collector ? relayer : parseAccountId(destination).address;
        const input = { paymentId: p.id, currency: p.currency, amountMinor: p.amountMinor, account, to, expiresAt, now };
        const offer = nativeOffer(await nativeTerms(asset.chainId, p.currency), { ...input, paymentExpiresAt });
        if (!offer) continue;
        value = offer.wei;
        offeredData = { typedData: JSON.stringify(offer.quote), permitTo: null };
      } else offeredData = offeredTypedData(asset, account, value, nonce, quote);
      const { typedData, permitTo } = offeredData;
      const id = newId('opt');
      const inherited = given.get(account.id);
      const data = inherited ? openedOptionData(config, { id: inherited.optionId, collectedData: inherited.sealed }) : null;
      offered.push({
        id,
        paymentId: p.id,
        account: account.id,
        asset: asset.id,
        chainId: asset.chainId,
        tokenAmount: value,
        typedData,
        nonce,
        collectData: collect,
        collectedData: data === null ? null : sealOptionData(config, id, data),
        expiresAt: new Date(expiresAt * 1000),
        assetInfo: asset,
        relayer,
        permitTo,
        approve: null,
      });
    }
  }
  await setApprovals(chainWork, offered);
  await storeQuotes(
    db,
    config.limits,
    offered.map(({ assetInfo: _a, approve: _b, ...o }) => o),
    { paymentId: p.id, callerId, collectScope: collect ? collectScope(tokens[0]) : null },
  );
  const collectData = collect
    ? collectDataFor(
        config.publicBaseUrl,
        p.id,
        parsed.map((a) => a.id),
        tokens[0],
      )
    : undefined;
  return { ...pw, options: offered, collectData, etaS: ETA_S };
}

/** Buyer data (its JSON) sealed for the option `optionId`. */
export const sealOptionData = (config: Config, optionId: string, json: string): Buffer =>
  seal(config.dataKeys, json, sealedAt(OPTION_DATA, optionId));

/**
 * The buyer data an option holds, or null when it holds none, or none that opens for this option (sealed for
 * another row, or with a key no longer in the keyring): the buyer is then asked for it again.
 */
export function openedOptionData(config: Config, opt: Pick<StoredOption, 'id' | 'collectedData'>): string | null {
  return opt.collectedData ? unsealOrNull(config.dataKeys, opt.collectedData, sealedAt(OPTION_DATA, opt.id)) : null;
}

/** The option, checked to belong to this open payment and still quoted. */
export async function openOption(db: Db, config: Config, rawId: string, optionId: string) {
  const pw = await gatewayPayment(db, config.publicBaseUrl, rawId);
  const opt = await findOption(db, optionId);
  if (!opt || opt.paymentId !== pw.payment.id) throw new AppError('option_not_found');
  return { pw, opt };
}

/** 409 quote_expired once the quote's expiry has passed by the database's clock (the time the option was read). */
export function checkQuote(opt: Pick<StoredOption, 'expiresAt'> & { asOf: Date }): void {
  if (opt.expiresAt.getTime() <= opt.asOf.getTime()) throw new AppError('quote_expired');
}

/**
 * Validated flat data, or issues under `base` (400 params_validation). Its JSON text is exactly what was
 * validated: seal `JSON.stringify(...)` of it (or `validCollectedJson`).
 */
export function validCollected(input: unknown, base: string): Record<string, unknown> {
  const c = collectedJson(input, base);
  if (!c.ok) throw new AppError('params_validation', undefined, c.issues);
  return c.data;
}

/** The JSON text to seal: validated as it is stored. */
export function validCollectedJson(input: unknown, base: string): string {
  const c = collectedJson(input, base);
  if (!c.ok) throw new AppError('params_validation', undefined, c.issues);
  return c.json;
}

const hasData = (d: unknown) =>
  d !== null &&
  d !== undefined &&
  !(typeof d === 'string' && d === '') &&
  !(typeof d === 'object' && !Array.isArray(d) && Object.keys(d as object).length === 0);

/**
 * fetch: the option's actions. When the option collects buyer data, `data` may carry it (stored sealed,
 * so confirm need not repeat it); without it, and none stored yet, 400 collect_data_required.
 */
export async function fetchActions(db: Db, config: Config, chainWork: ChainWork, rawId: string, optionId: string, data: unknown) {
  const { pw, opt } = await openOption(db, config, rawId, optionId);
  if (pw.payment.status !== 'requires_action') throw notOpen(pw.payment);
  checkQuote(opt);
  if (opt.collectData) {
    if (hasData(data)) await storeCollected(db, opt.id, sealOptionData(config, opt.id, validCollectedJson(data, '/data')));
    else if (openedOptionData(config, opt) === null) throw new AppError('collect_data_required');
  }
  const native = nativeQuoteOf(opt.typedData);
  if (native) await checkNativePrice(chainWork, opt.chainId, native);
  const owner = parseAccountId(opt.account).address;
  return {
    ...opt,
    approve: opt.permitTo === null ? null : await approvalNeeded(chainWork, opt.chainId, opt.asset, owner, opt.tokenAmount),
  };
}
