import { modeOfScope } from '../../domain/mode';
import { inTransaction, readsOf, type Db } from '../../db/knex';
import type { Config } from '../../config';
import { getAddress } from 'viem';
import type { ChainWork } from '../../domain/chain';
import type { Asset } from '../../domain/asset';
import { parseAccountId, parseAssetId } from '../../domain/caip';
import { AppError } from '../../domain/errors';
import { pegToTokenUnits } from '../../domain/money';
import type { Payment } from '../../domain/payment';
import {
  ASSET_TRANSFER_METHOD,
  eip3009Payload,
  EXACT,
  REASON,
  X402_VERSION,
  type X402Payload,
  type X402Requirements,
} from '../../domain/x402';
import type { ChangeHub } from '../../events/changeHub';
import { settlementTerms } from '../../db/accountsRepo';
import { payableSettlements } from '../../db/optionsRepo';
import { findSettlement, settlementOf } from '../../db/x402Repo';
import { gatewayPayment, notOpen } from '../gateway/payments';
import { checkRevertBudget, revertScopeOf, type RevertCaller } from '../gateway/revertBudget';
import type { ConfirmChecks } from '../gateway/confirmChecks';
import { checkBudget, fundingAssetOf, refuseWithoutBuyerData, requireFundingTerms, requireOpen, runRules } from '../gateway/confirmRules';
import { fundingCollector } from '../gateway/options';
import { askThrough, checkX402, type Checked, type Payee, type X402Request } from './check';
import { AlreadySettled, confirmAuthorization, settlementAnswer, settlementKey } from './facilitator';
import { depositOf } from './deposit';
import type { DataKeyring } from '../../domain/sealed';

// Preview: a payment link paid over x402 (docs/x402.md), so that an agent pays a partner's checkout with no wallet UI.
// Without PAYMENT-SIGNATURE: 402 payment_required, the payment's requirements in PAYMENT-REQUIRED (one per EIP-3009
// settlement asset of the merchant on a chain this instance settles on; payTo the merchant's destination, or in
// collector mode the collector). With it: the payload is checked as the facilitator checks it, against the
// requirement it accepted, confirmed as this payment's option and submitted by the relayer; the answer waits for the
// outcome and carries x402's settle answer in PAYMENT-RESPONSE. A refused payload is 402 again, its reason in `error`.

/** How long an x402 authorization for a payment link may be valid at most (x402's maxTimeoutSeconds). */
const MAX_TIMEOUT_S = 300;

interface Offer {
  requirements: X402Requirements;
  payee: Payee;
  asset: Asset;
}

/** The payment's x402 requirements: each EIP-3009 settlement asset it may be paid in, on a chain this instance settles on. */
async function offers(db: Db, keys: DataKeyring, chainWork: ChainWork, p: Payment): Promise<Offer[]> {
  const [settlements, terms, fundsAsset] = await readsOf(db, [
    () => payableSettlements(db, p.merchantId, p.currency),
    () => settlementTerms(db, p.accountId),
    () => fundingAssetOf(db, p.id),
  ]);
  const mode = modeOfScope(p.accountId);
  const chains = new Set(chainWork.settlingChains(mode).map((c) => c.chainId));
  // A refund's funding goes to a collector whatever the account's mode (the funding rule, confirmRules.ts).
  const collector = terms.mode === 'collector' || fundsAsset !== null;
  const fundingAt = fundsAsset === null ? null : await fundingCollector(db, chainWork, p.id);
  const secondsLeft = Math.floor((p.expiresAt.getTime() - p.asOf.getTime()) / 1000);
  // Collector mode is paid to the account's deposit address, which passes the tokens on to the collector (x402Deposit.ts).
  const deposit = collector ? await depositOf(db, keys, p.accountId) : undefined;
  return settlements
    .filter(({ asset }) => asset.transferMethod === 'eip3009' && chains.has(asset.chainId))
    .filter(({ asset }) => fundsAsset === null || asset.id === fundsAsset)
    .map(({ asset, destination }) => {
      const relayer = fundingAt ?? chainWork.relayerFor(asset.chainId, `${p.id}/x402`, mode)!;
      const requirements = {
        scheme: EXACT,
        network: asset.chainId,
        asset: parseAssetId(asset.id).assetReference,
        amount: pegToTokenUnits({ currency: p.currency, minor: p.amountMinor }, asset.decimals).toString(),
        payTo: deposit ? deposit.address : parseAccountId(destination).address,
        maxTimeoutSeconds: Math.max(1, Math.min(MAX_TIMEOUT_S, secondsLeft)),
        // assetTransferMethod: current x402 specs name it; @x402/evm clients sign EIP-3009 for it (and when absent).
        extra: { name: asset.eip712Name, version: asset.eip712Version, assetTransferMethod: ASSET_TRANSFER_METHOD },
      };
      return { requirements, payee: { merchantId: p.merchantId, collector, relayer, deposit }, asset };
    });
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');

function paymentRequired(config: Config, p: Payment, accepts: Offer[], error?: string): AppError {
  const resource = {
    url: `${config.publicBaseUrl}/v1/gateway/payment/${p.id}/x402`,
    description: `Payment ${p.id}`,
    mimeType: 'application/json',
  };
  const required = { x402Version: X402_VERSION, ...(error ? { error } : {}), resource, accepts: accepts.map((o) => o.requirements) };
  return new AppError('payment_required', error, undefined, { 'PAYMENT-REQUIRED': b64(required) });
}

/** The PaymentPayload of a PAYMENT-SIGNATURE header, or null when it holds none (answered 402, as x402 servers do). */
function decoded(header: string): X402Payload | null {
  try {
    const v = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
    if (v && typeof v === 'object' && v.accepted && typeof v.accepted === 'object' && v.payload && typeof v.payload === 'object') return v;
  } catch {
    // not JSON
  }
  return null;
}

const sameTerms = (a: X402Requirements, b: Partial<X402Requirements>) =>
  a.scheme === b.scheme &&
  a.network === b.network &&
  a.amount === b.amount &&
  typeof b.asset === 'string' &&
  a.asset.toLowerCase() === b.asset.toLowerCase() &&
  typeof b.payTo === 'string' &&
  a.payTo.toLowerCase() === b.payTo.toLowerCase();

/** The payment after the paid retry, and x402's settle answer; or 402 payment_required. */
export async function payByX402(
  deps: { db: Db; config: Config; chainWork: ChainWork; hub: ChangeHub; checks: ConfirmChecks },
  rawId: string,
  header: string | undefined,
  caller: RevertCaller,
  waitMs: number,
) {
  const { db, config, chainWork, hub } = deps;
  const p = (await gatewayPayment(db, config.publicBaseUrl, rawId)).payment;
  const payload = header === undefined ? undefined : decoded(header);
  const asRequest = (q: X402Payload): X402Request => ({ x402Version: X402_VERSION, paymentPayload: q, paymentRequirements: q.accepted });
  const key = payload && settlementKey(p.accountId, asRequest(payload));
  const earlier = key && (await findSettlement(db, key));
  if (earlier && earlier.paymentId === p.id) return answer(db, config, hub, p.id, waitMs);
  let offered: Offer[] = [];
  let offer!: Offer;
  let c!: Extract<Checked, { ok: true }>;
  const payer = (payload && eip3009Payload(payload)?.authorization.from) ?? '';
  const refused = (error: string) => paymentRequired(config, p, offered, error);
  await runRules({
    state: () => requireOpen(p),
    quote: async () => {
      offered = await offers(db, config.dataKeys, chainWork, p);
      if (payload === undefined) throw paymentRequired(config, p, offered);
      if (payload === null) throw refused("PAYMENT-SIGNATURE is not x402's PaymentPayload (base64-encoded JSON)");
      if (earlier) throw refused(`${REASON.nonceUsed}: this authorization paid another payment`);
      const found = offered.find((o) => sameTerms(o.requirements, payload.accepted));
      if (!found || !key) throw refused("the payload accepts none of this payment's requirements");
      offer = found;
    },
    // The offers hold only the funding's terms; checked again as every door checks them.
    funding: async () => requireFundingTerms(await fundingAssetOf(db, p.id), { asset: offer.asset.id, toCollector: offer.payee.collector }),
    buyerData: () => refuseWithoutBuyerData(db, config, p),
    revertBudget: () => checkBudget(db, config, p.accountId, payer, caller),
    chain: async () => {
      const req: X402Request = { x402Version: X402_VERSION, paymentPayload: payload!, paymentRequirements: offer.requirements };
      const ask = askThrough(deps.checks, caller.keyId, p.id);
      const checked = await checkX402(
        db,
        ask,
        chainWork,
        modeOfScope(p.accountId),
        req,
        Math.floor(Date.now() / 1000),
        async () => offer.payee,
      );
      if (!checked.ok) throw refused(`${checked.refusal.reason}: ${checked.refusal.message}`);
      if (getAddress(checked.payee.relayer) !== getAddress(offer.payee.relayer)) throw new Error('x402: the payee changed under the check');
      c = checked;
    },
  });
  const scope = revertScopeOf(p.accountId, payer, caller);
  try {
    await inTransaction(db, async (trx) => {
      await checkRevertBudget(trx, config.revertBudget, scope, true);
      if (!(await confirmAuthorization(trx, p.id, c, key!, caller.keyId)))
        throw notOpen((await gatewayPayment(trx, config.publicBaseUrl, p.id)).payment);
    });
  } catch (e) {
    if (!(e instanceof AlreadySettled)) throw e;
    const winner = await findSettlement(db, key!);
    if (winner?.paymentId !== p.id) throw refused(`${REASON.nonceUsed}: this authorization paid another payment`);
  }
  await chainWork.startSubmit(p.id);
  return answer(db, config, hub, p.id, waitMs);
}

async function answer(db: Db, config: Config, hub: ChangeHub, paymentId: string, waitMs: number) {
  const settled = await settlementAnswer(db, hub, (await settlementOf(db, paymentId))!, waitMs);
  return { ...(await gatewayPayment(db, config.publicBaseUrl, paymentId)), paymentResponse: b64(settled) };
}
