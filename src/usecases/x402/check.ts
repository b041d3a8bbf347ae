import { modeOfScope, type Mode } from '../../domain/mode';
import type { components } from '../../../generated/2026-02-19.preview/types';
import type { Db } from '../../db/knex';
import { createHash } from 'node:crypto';
import { getAddress, type Hex } from 'viem';
import type { AuthorizationCheck, ChainWork } from '../../domain/chain';
import type { Asset } from '../../domain/asset';
import { parseAssetId } from '../../domain/caip';
import { buildTransferAuthorization, serialiseTypedData } from '../../domain/eip3009';
import { AppError } from '../../domain/errors';
import { tokenUnitsToPegMinor } from '../../domain/money';
import {
  chainReason,
  eip3009Payload,
  REASON,
  termsRefusal,
  transferMethodRefusal,
  type Authorization,
  type Refusal,
  type X402Payload,
  type X402Requirements,
} from '../../domain/x402';
import { depositAuthorization, type Deposit } from '../../domain/x402Deposit';
import type { DataKeyring } from '../../domain/sealed';
import { settlementTerms } from '../../db/accountsRepo';
import { assetAt, merchantsSettling } from '../../db/x402Repo';
import type { ConfirmChecks } from '../gateway/confirmChecks';
import { chainCheck } from '../gateway/confirmRules';
import { depositOf } from './deposit';

// What verify checks and settle checks again, moving nothing: the payload's form, the `exact` scheme's terms
// (src/domain/x402.ts), whose merchant `payTo` pays (403 for anyone else's address), then the signature and the
// transfer simulated as the relayer will send it (src/usecases/gateway/authorizationCheck.ts: EOA or ERC-1271, balance,
// nonce, validity window on chain).

/** The body of `POST /x402/verify` and `POST /x402/settle`, as the preview's generated types give it. */
export type X402Request = components['schemas']['X402FacilitatorRequest'];

// The generated wire shapes are the domain's (src/domain/x402.ts, which may not import generated code): a spec change
// that makes them differ fails to compile here, not at run time.
type Assignable<T extends U, U> = T;
export type X402WireIsDomain = [
  Assignable<X402Request['paymentPayload'], X402Payload>,
  Assignable<X402Request['paymentRequirements'], X402Requirements>,
];

/** Who is paid: a merchant's own destination (direct), or the account's collector (collector mode) for a merchant. */
export interface Payee {
  merchantId: string;
  collector: boolean;
  /** The relayer key that submits the transfer (the collector itself in collector mode). */
  relayer: string;
  /** Collector mode: the account's deposit address, which `payTo` names and which passes the tokens on to `relayer`. */
  deposit?: Deposit;
}

export type Checked =
  | { ok: false; refusal: Refusal; payer?: string }
  | {
      ok: true;
      payer: string;
      asset: Asset;
      authorization: Authorization;
      /** The signature as the token will check it (an EOA's normalised). */
      signature: Hex;
      typedData: string;
      payee: Payee;
      amountMinor: bigint;
      /** Paid to a deposit address: signs its onward authorization to the collector (x402Deposit.ts), at settle only. */
      signDeposit: (() => Promise<Hex>) | null;
    };

/** The last second a Date (and so the option's expiry) can hold: ECMAScript's 8.64e15 ms. */
const LAST_DATE_S = 8_640_000_000_000n;

const refuse = (reason: string, message: string, payer?: string): Checked => ({ ok: false, refusal: { reason, message }, payer });

/** Settlements of anyone else's `payTo` are refused: this service relays for its accounts' merchants only. */
const notOurs = (what: string) => new AppError('forbidden', `${what}: this facilitator settles only to its account's merchants.`);

/** The collector that takes what the account's deposit address is paid on `asset`'s chain, and that deposit address. */
async function depositPayee(db: Db, keys: DataKeyring, chainWork: ChainWork, accountId: string, asset: Asset) {
  const relayer = chainWork.relayerFor(asset.chainId, `x402-deposit/${accountId}`, modeOfScope(accountId));
  if (!relayer) throw new Error(`no relayer on ${asset.chainId}, which this instance settles on`);
  return { relayer, deposit: await depositOf(db, keys, accountId) };
}

/** The payee of the facilitator's requirements: whose merchant of the account `payTo` is (403 for anyone else's address). */
export async function payeeOf(
  db: Db,
  keys: DataKeyring,
  chainWork: ChainWork,
  accountId: string,
  asset: Asset,
  r: X402Requirements,
): Promise<Payee> {
  const payTo = getAddress(r.payTo);
  const named = typeof r.extra?.merchantId === 'string' ? r.extra.merchantId : undefined;
  const mode = modeOfScope(accountId);
  const relayers = chainWork.settlingChains(mode).find((c) => c.chainId === asset.chainId)?.relayers ?? [];
  // The operator sets the account's mode (and with collector mode its fee): payTo cannot choose the other one.
  const collectorMode = (await settlementTerms(db, accountId)).mode === 'collector';
  if (relayers.includes(payTo))
    throw notOurs(
      collectorMode
        ? "payTo is the collector every account shares: collector mode pays the account's x402 deposit address (GET /v1/account/settings)"
        : 'payTo is a collector, and this account settles directly',
    );
  if (collectorMode) {
    const { relayer, deposit } = await depositPayee(db, keys, chainWork, accountId, asset);
    if (getAddress(deposit.address) !== payTo)
      throw notOurs(`collector mode pays this account's x402 deposit address ${deposit.address}, not ${payTo}`);
    if (!named)
      throw new AppError('params_validation', undefined, [
        { field: '/paymentRequirements/extra/merchantId', message: 'collector mode names the merchant paid' },
      ]);
    if (!(await merchantsSettling(db, accountId, asset.id)).includes(named))
      throw notOurs(`${named} is no merchant of this account settling ${asset.id}`);
    return { merchantId: named, collector: true, relayer, deposit };
  }
  const merchants = await merchantsSettling(db, accountId, asset.id, `${asset.chainId}:${payTo}`);
  const merchantId = named ? merchants.find((m) => m === named) : merchants[0];
  if (!merchantId) throw notOurs(`payTo ${payTo} is no settlement destination of ${named ?? 'a merchant of this account'} for ${asset.id}`);
  const relayer = chainWork.relayerFor(asset.chainId, `${payTo}/${r.network}`, mode);
  if (!relayer) throw new Error(`no relayer on ${asset.chainId}, which this instance settles on`);
  return { merchantId, collector: false, relayer };
}

/** The chain's verdict on an authorization, asked as the relayer will submit it (confirmRules.ts, the chain step). */
export type AskChain = (q: { asset: Asset; typedData: string; signature: string; relayer: string }) => Promise<AuthorizationCheck>;

/** The chain step for x402 through ConfirmChecks: its limits count per credential and per authorization. */
export const askThrough =
  (checks: ConfirmChecks, credential: string, paymentId?: string): AskChain =>
  ({ asset, typedData, signature, relayer }) => {
    const id = `x402:${createHash('sha256').update(typedData).digest('base64url')}`;
    return chainCheck(checks, { id, paymentId: paymentId ?? id, chainId: asset.chainId, typedData, relayer }, signature, credential);
  };

/** The payload's form and terms checked, its payee found, nothing asked of the chain yet. */
export type Termed =
  Extract<Checked, { ok: false }> | (Omit<Extract<Checked, { ok: true }>, 'signature'> & { ok: true; rawSignature: string });

/**
 * The quote step for x402: the payload's form and the `exact` scheme's terms. `payee`: who the requirements pay (it
 * throws 403 for a payee that is not the caller's); `mode`: the payment's or caller's.
 */
export async function x402Terms(
  db: Db,
  chainWork: ChainWork,
  mode: Mode,
  req: X402Request,
  nowS: number,
  payee: (asset: Asset) => Promise<Payee>,
): Promise<Termed> {
  const p = req.paymentPayload;
  const r = req.paymentRequirements;
  const method = transferMethodRefusal(p, r);
  if (method) return { ok: false, refusal: method, payer: eip3009Payload(p)?.authorization.from } as Termed;
  const parsed = eip3009Payload(p);
  if (!parsed) return refuse(REASON.payloadType, 'only an EIP-3009 authorization with its signature is settled here') as Termed;
  const a = parsed.authorization;
  const payer = a.from;
  const no = (reason: string, message: string) => refuse(reason, message, payer) as Termed;
  if (!chainWork.settlingChains(mode).some((c) => c.chainId === r.network))
    return no(REASON.network, `this facilitator does not settle on ${r.network}`);
  const asset = /^0x[0-9a-fA-F]{40}$/.test(r.asset) ? await assetAt(db, r.network, r.asset) : undefined;
  if (!asset) return no(REASON.notEip3009, `${r.asset} is no token this facilitator settles on ${r.network}`);
  const terms = termsRefusal(p, r, a, asset, nowS);
  if (terms) return { ok: false, refusal: terms, payer };
  if (a.validBefore > LAST_DATE_S) return no(REASON.validBefore, 'validBefore is beyond any time this facilitator settles by');
  const amountMinor = asset.pegCurrency ? tokenUnitsToPegMinor(a.value, asset.pegCurrency, asset.decimals) : null;
  if (!amountMinor) return no(REASON.value, `the amount must be more than 0 of a token pegged to a currency (a payment's amount)`);
  const to = await payee(asset);
  const td = buildTransferAuthorization({
    kind: 'TransferWithAuthorization',
    domainName: asset.eip712Name!,
    domainVersion: asset.eip712Version!,
    chainId: Number(r.network.split(':')[1]),
    token: parseAssetId(asset.id).assetReference,
    from: a.from,
    to: a.to,
    value: a.value,
    validAfter: Number(a.validAfter),
    validBefore: Number(a.validBefore),
    nonce: a.nonce,
  });
  const deposit = to.deposit;
  const signDeposit = deposit ? () => deposit.sign(depositAuthorization(td, to.relayer)) : null;
  const typedData = serialiseTypedData(td);
  return { ok: true, payer, asset, authorization: a, rawSignature: parsed.signature, typedData, payee: to, amountMinor, signDeposit };
}

/** The chain step for x402: the signature and the transfer simulated (`ask`: ConfirmChecks' limits and refusal cache). */
export async function x402Chain(ask: AskChain, t: Termed): Promise<Checked> {
  if (!t.ok) return t;
  const { rawSignature, ...rest } = t;
  const check = await ask({ asset: t.asset, typedData: t.typedData, signature: rawSignature, relayer: t.payee.relayer });
  if (!check.ok) return refuse(chainReason(check.refusal), check.reason, t.payer);
  return { ...rest, signature: check.signature };
}

/** Both steps, for a door whose rules between them do not depend on the payload's terms. */
export async function checkX402(
  db: Db,
  ask: AskChain,
  chainWork: ChainWork,
  mode: Mode,
  req: X402Request,
  nowS: number,
  payee: (asset: Asset) => Promise<Payee>,
): Promise<Checked> {
  return x402Chain(ask, await x402Terms(db, chainWork, mode, req, nowS, payee));
}
