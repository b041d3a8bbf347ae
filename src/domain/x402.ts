import { getAddress, isAddress, type Hex } from 'viem';
import type { ChainRefusal } from './chain';

// x402 v2 (the `exact` scheme on EVM with EIP-3009) as this facilitator reads it: the wire's shapes, the checks the
// scheme asks for that need no chain, and x402's own names for every refusal (its exact-EVM facilitator's
// reason names, character for character, so that resource servers and clients read them as from any facilitator).

export const X402_VERSION = 2;
export const EXACT = 'exact';
export const PAYMENT_IDENTIFIER = 'payment-identifier';
/**
 * `extra.assetTransferMethod` of the requirements this facilitator settles and produces: x402's name for EIP-3009
 * (@x402/evm: `eip3009` | `permit2`; absent means EIP-3009). Permit2 is not settled here.
 */
export const ASSET_TRANSFER_METHOD = 'eip3009';

export const REASON = {
  scheme: 'invalid_exact_evm_scheme',
  network: 'invalid_exact_evm_network_mismatch',
  missingDomain: 'invalid_exact_evm_missing_eip712_domain',
  recipient: 'invalid_exact_evm_recipient_mismatch',
  signature: 'invalid_exact_evm_signature',
  validBefore: 'invalid_exact_evm_payload_authorization_valid_before',
  validAfter: 'invalid_exact_evm_payload_authorization_valid_after',
  value: 'invalid_exact_evm_authorization_value',
  tokenName: 'invalid_exact_evm_token_name_mismatch',
  tokenVersion: 'invalid_exact_evm_token_version_mismatch',
  notEip3009: 'invalid_exact_evm_eip3009_not_supported',
  nonceUsed: 'invalid_exact_evm_nonce_already_used',
  balance: 'invalid_exact_evm_insufficient_balance',
  simulation: 'invalid_exact_evm_transaction_simulation_failed',
  transactionFailed: 'invalid_exact_evm_transaction_failed',
  /** x402's shared settle error: here, the budget of reverted submissions is used up (src/usecases/gateway/revertBudget.ts). */
  transactionState: 'invalid_transaction_state',
  payloadType: 'unsupported_payload_type',
  /** x402's shared error: here, the payment needs buyer data, which a payload cannot carry. */
  requirements: 'invalid_payment_requirements',
  pending: 'settlement_pending',
} as const;

/**
 * The requirements (and what the payload accepted) name an asset transfer method other than EIP-3009: refused as x402's
 * invalid_payment_requirements, the message naming the method. Null when none is named or it is `eip3009`.
 */
export function transferMethodRefusal(p: X402Payload, r: X402Requirements): Refusal | null {
  for (const extra of [r.extra, p.accepted?.extra]) {
    const method = extra?.assetTransferMethod;
    if (method !== undefined && method !== ASSET_TRANSFER_METHOD)
      return {
        reason: REASON.requirements,
        message: `unsupported_asset_transfer_method: this facilitator settles ${ASSET_TRANSFER_METHOD} only, not ${JSON.stringify(method)}`,
      };
  }
  return null;
}

/** validBefore must leave this much time, as x402's reference facilitator asks (a block's time). */
const VALID_BEFORE_MARGIN_S = 6;

export interface X402Requirements {
  scheme: string;
  network: string;
  asset: string;
  amount: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra?: Record<string, unknown>;
}

export interface X402Payload {
  x402Version: number;
  resource?: { url: string; description?: string; mimeType?: string };
  accepted: X402Requirements;
  payload: Record<string, unknown>;
  extensions?: Record<string, unknown>;
}

export interface Authorization {
  from: Hex;
  to: Hex;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

export type Refusal = { reason: string; message: string };

const HEX32 = /^0x[0-9a-fA-F]{64}$/;
const UINT = /^[0-9]{1,78}$/;
const SIGNATURE = /^0x(?:[0-9a-fA-F]{2}){65,4096}$/;

const uint = (v: unknown): bigint | null =>
  typeof v === 'string' && UINT.test(v) ? BigInt(v) : typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? BigInt(v) : null;

/** The EIP-3009 authorization and signature of an `exact` payload, or null when it is another kind (Permit2) or malformed. */
export function eip3009Payload(p: X402Payload): { authorization: Authorization; signature: Hex } | null {
  const { authorization: a, signature } = p.payload as { authorization?: Record<string, unknown>; signature?: unknown };
  if (!a || typeof a !== 'object' || typeof signature !== 'string' || !SIGNATURE.test(signature)) return null;
  const [value, validAfter, validBefore] = [uint(a.value), uint(a.validAfter), uint(a.validBefore)];
  const { from, to, nonce } = a;
  if (typeof from !== 'string' || !isAddress(from, { strict: false }) || typeof to !== 'string' || !isAddress(to, { strict: false }))
    return null;
  if (typeof nonce !== 'string' || !HEX32.test(nonce) || value === null || validAfter === null || validBefore === null) return null;
  return {
    authorization: { from: getAddress(from), to: getAddress(to), value, validAfter, validBefore, nonce: nonce.toLowerCase() as Hex },
    signature: signature as Hex,
  };
}

/** The payload's payment identifier (the `payment-identifier` extension's `info.id`), null when none is given. */
export function paymentIdentifierOf(p: X402Payload): string | null {
  const info = (p.extensions?.[PAYMENT_IDENTIFIER] as { info?: { id?: unknown } } | undefined)?.info;
  const id = info?.id;
  return typeof id === 'string' && /^[a-zA-Z0-9_-]{16,128}$/.test(id) ? id : null;
}

/** The token's EIP-712 domain and how it is paid, as the asset registry holds them. */
export interface TokenTerms {
  eip712Name: string | null;
  eip712Version: string | null;
  transferMethod: string;
}

/**
 * What the `exact` scheme asks of a payload before the chain is asked: the scheme, the network, the EIP-712 domain
 * (given, and the token's), the recipient, the validity window (by `nowS`) and the value. Null when all hold.
 */
export function termsRefusal(p: X402Payload, r: X402Requirements, a: Authorization, token: TokenTerms, nowS: number): Refusal | null {
  if (p.accepted.scheme !== EXACT || r.scheme !== EXACT) return { reason: REASON.scheme, message: 'only the exact scheme is settled here' };
  if (p.accepted.network !== r.network) return { reason: REASON.network, message: 'the payload was made for another network' };
  const { name, version } = (r.extra ?? {}) as { name?: unknown; version?: unknown };
  if (typeof name !== 'string' || !name || typeof version !== 'string' || !version)
    return { reason: REASON.missingDomain, message: "the requirements' extra must carry the token's EIP-712 name and version" };
  if (token.transferMethod !== 'eip3009' || !token.eip712Name)
    return { reason: REASON.notEip3009, message: 'this token has no EIP-3009 here' };
  if (name !== token.eip712Name) return { reason: REASON.tokenName, message: `the token's EIP-712 name is ${token.eip712Name}` };
  if (version !== token.eip712Version)
    return { reason: REASON.tokenVersion, message: `the token's EIP-712 version is ${token.eip712Version}` };
  if (!isAddress(r.payTo, { strict: false }) || getAddress(r.payTo) !== a.to)
    return { reason: REASON.recipient, message: "the authorization's to is not the requirements' payTo" };
  if (a.validBefore < BigInt(nowS + VALID_BEFORE_MARGIN_S))
    return { reason: REASON.validBefore, message: `validBefore must be at least ${VALID_BEFORE_MARGIN_S} s ahead` };
  if (a.validAfter > BigInt(nowS)) return { reason: REASON.validAfter, message: 'validAfter is in the future' };
  if (!UINT.test(r.amount) || a.value !== BigInt(r.amount))
    return { reason: REASON.value, message: "the authorization's value is not the requirements' amount" };
  return null;
}

/** x402's name for why the chain refuses (or refused) an authorization. */
export function chainReason(refusal: ChainRefusal | string): string {
  switch (refusal) {
    case 'invalid_signature':
    case 'contract_wallet_not_accepted':
      return REASON.signature;
    case 'authorization_used':
      return REASON.nonceUsed;
    case 'insufficient_funds':
      return REASON.balance;
    case 'authorization_expired':
      return REASON.validBefore;
    case 'authorization_not_yet_valid':
      return REASON.validAfter;
    default:
      return REASON.simulation;
  }
}
