import type { Db } from '../db/knex';
import { getAddress, type Hex } from 'viem';
import { ChainUnavailable, type ChainWork } from '../domain/chain';
import type { Asset } from '../domain/asset';
import { parseAssetId } from '../domain/caip';
import { buildTransferAuthorization, serialiseTypedData } from '../domain/eip3009';
import { AppError } from '../domain/errors';
import { tokenUnitsToPegMinor } from '../domain/money';
import {
  chainReason,
  eip3009Payload,
  REASON,
  termsRefusal,
  type Authorization,
  type Refusal,
  type X402Payload,
  type X402Requirements,
} from '../domain/x402';
import { settlementTerms } from '../db/accountsRepo';
import { assetAt, merchantsSettling } from '../db/x402Repo';

// What verify checks and settle checks again, moving nothing: the payload's form, the `exact` scheme's terms
// (src/domain/x402.ts), whose merchant `payTo` pays (403 for anyone else's address), then the signature and the
// transfer simulated as the relayer will send it (src/usecases/authorizationCheck.ts: EOA or ERC-1271, balance,
// nonce, validity window on chain).

export interface X402Request {
  paymentPayload: X402Payload;
  paymentRequirements: X402Requirements;
}

/** Who is paid: a merchant's own destination (direct), or the account's collector (collector mode) for a merchant. */
export interface Payee {
  merchantId: string;
  collector: boolean;
  /** The relayer key that submits the transfer (the collector itself in collector mode). */
  relayer: string;
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
    };

/** The last second a Date (and so the option's expiry) can hold: ECMAScript's 8.64e15 ms. */
const LAST_DATE_S = 8_640_000_000_000n;

const refuse = (reason: string, message: string, payer?: string): Checked => ({ ok: false, refusal: { reason, message }, payer });

/** Settlements of anyone else's `payTo` are refused: this service relays for its accounts' merchants only. */
const notOurs = (what: string) => new AppError('forbidden', `${what}: this facilitator settles only to its account's merchants.`);

/** The payee of the facilitator's requirements: whose merchant of the account `payTo` is (403 for anyone else's address). */
export async function payeeOf(db: Db, chainWork: ChainWork, accountId: string, asset: Asset, r: X402Requirements): Promise<Payee> {
  const payTo = getAddress(r.payTo);
  const named = typeof r.extra?.merchantId === 'string' ? r.extra.merchantId : undefined;
  const relayers = chainWork.settlingChains().find((c) => c.chainId === asset.chainId)?.relayers ?? [];
  // The operator sets the account's mode (and with collector mode its fee): payTo cannot choose the other one.
  const collectorMode = (await settlementTerms(db, accountId)).mode === 'collector';
  if (relayers.includes(payTo) !== collectorMode)
    throw notOurs(
      collectorMode
        ? 'this account settles through its collector, payTo must be one'
        : 'payTo is a collector, and this account settles directly',
    );
  if (collectorMode) {
    if (!named)
      throw new AppError('params_validation', undefined, [
        { field: '/paymentRequirements/extra/merchantId', message: 'collector mode names the merchant paid' },
      ]);
    if (!(await merchantsSettling(db, accountId, asset.id)).includes(named))
      throw notOurs(`${named} is no merchant of this account settling ${asset.id}`);
    return { merchantId: named, collector: true, relayer: payTo };
  }
  const merchants = await merchantsSettling(db, accountId, asset.id, `${asset.chainId}:${payTo}`);
  const merchantId = named ? merchants.find((m) => m === named) : merchants[0];
  if (!merchantId) throw notOurs(`payTo ${payTo} is no settlement destination of ${named ?? 'a merchant of this account'} for ${asset.id}`);
  const relayer = chainWork.relayerFor(asset.chainId, `${payTo}/${r.network}`);
  if (!relayer) throw new Error(`no relayer on ${asset.chainId}, which this instance settles on`);
  return { merchantId, collector: false, relayer };
}

/** `payee`: who the requirements pay (it throws 403 for a payee that is not the caller's). */
export async function checkX402(
  db: Db,
  chainWork: ChainWork,
  req: X402Request,
  nowS: number,
  payee: (asset: Asset) => Promise<Payee>,
): Promise<Checked> {
  const p = req.paymentPayload;
  const r = req.paymentRequirements;
  const parsed = eip3009Payload(p);
  if (!parsed) return refuse(REASON.payloadType, 'only an EIP-3009 authorization with its signature is settled here');
  const a = parsed.authorization;
  const payer = a.from;
  if (!chainWork.settlingChains().some((c) => c.chainId === r.network))
    return refuse(REASON.network, `this facilitator does not settle on ${r.network}`, payer);
  const asset = /^0x[0-9a-fA-F]{40}$/.test(r.asset) ? await assetAt(db, r.network, r.asset) : undefined;
  if (!asset) return refuse(REASON.notEip3009, `${r.asset} is no token this facilitator settles on ${r.network}`, payer);
  const terms = termsRefusal(p, r, a, asset, nowS);
  if (terms) return { ok: false, refusal: terms, payer };
  if (a.validBefore > LAST_DATE_S) return refuse(REASON.validBefore, 'validBefore is beyond any time this facilitator settles by', payer);
  const amountMinor = asset.pegCurrency ? tokenUnitsToPegMinor(a.value, asset.pegCurrency, asset.decimals) : null;
  if (!amountMinor)
    return refuse(REASON.value, `the amount must be more than 0 of a token pegged to a currency (a payment's amount)`, payer);
  const to = await payee(asset);
  const typedData = serialiseTypedData(
    buildTransferAuthorization({
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
    }),
  );
  let check;
  try {
    check = await chainWork.checkAuthorization(asset.chainId, typedData, parsed.signature, to.relayer);
  } catch (e) {
    if (!(e instanceof ChainUnavailable)) throw e;
    throw new AppError('service_unavailable', "The chain's RPC node cannot be reached; try again shortly.", undefined, {
      'Retry-After': '2',
    });
  }
  if (!check.ok) return refuse(chainReason(check.refusal), check.reason, payer);
  return { ok: true, payer, asset, authorization: a, signature: check.signature, typedData, payee: to, amountMinor };
}
