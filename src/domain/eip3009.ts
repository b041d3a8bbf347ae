import { randomBytes } from 'node:crypto';
import { getAddress, hashTypedData, parseSignature, serializeSignature, type Hex } from 'viem';
import { recoverAddress } from './secp256k1';

// EIP-3009 authorizations as EIP-712 typed data: what the wallet signs and what the relayer later submits.
// `ReceiveWithAuthorization` (collector mode: `to` is this service's relayer, and only `to` may submit it,
// so nobody can front-run the submission) or `TransferWithAuthorization` (direct mode: `to` is the
// merchant's destination). The typed data is built once, serialised once, stored as that exact string and
// handed to the wallet; confirm recovers the signer from the stored string, so every field (token, chain,
// amount, recipient, validity window, nonce) is checked by the signature itself.

const EIP712_DOMAIN_TYPE = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const;

const AUTHORIZATION_FIELDS = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
] as const;

export type AuthorizationKind = 'ReceiveWithAuthorization' | 'TransferWithAuthorization';

export interface TransferAuthorizationInput {
  kind: AuthorizationKind;
  /** The token's EIP-712 domain name and version (from the asset registry). */
  domainName: string;
  domainVersion: string;
  /** Numeric EVM chain id. */
  chainId: number;
  token: string;
  from: string;
  to: string;
  value: bigint;
  validAfter: number;
  validBefore: number;
  nonce: Hex;
}

export interface TransferAuthorization {
  types: { EIP712Domain: typeof EIP712_DOMAIN_TYPE } & Partial<Record<AuthorizationKind, typeof AUTHORIZATION_FIELDS>>;
  primaryType: AuthorizationKind;
  domain: { name: string; version: string; chainId: number; verifyingContract: string };
  message: { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: Hex };
}

export const randomNonce = (): Hex => `0x${randomBytes(32).toString('hex')}`;

/** uint256 values are decimal strings: JSON has no big integers and eth_signTypedData_v4 accepts them. */
export function buildTransferAuthorization(i: TransferAuthorizationInput): TransferAuthorization {
  if (i.value <= 0n) throw new Error('value must be positive');
  if (!/^0x[0-9a-f]{64}$/.test(i.nonce)) throw new Error('nonce must be 32 bytes of lower-case hex');
  return {
    types: { EIP712Domain: EIP712_DOMAIN_TYPE, [i.kind]: AUTHORIZATION_FIELDS },
    primaryType: i.kind,
    domain: { name: i.domainName, version: i.domainVersion, chainId: i.chainId, verifyingContract: getAddress(i.token) },
    message: {
      from: getAddress(i.from),
      to: getAddress(i.to),
      value: i.value.toString(),
      validAfter: String(i.validAfter),
      validBefore: String(i.validBefore),
      nonce: i.nonce,
    },
  };
}

export const serialiseTypedData = (td: TransferAuthorization): string => JSON.stringify(td);

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * The form of a 65-byte ECDSA signature that tokens accept (ecrecover as FiatToken and OpenZeppelin use
 * it refuses a high `s` and a `v` of 0 or 1): the same signer, re-encoded. Null when it is no such
 * signature (smart-contract wallets sign other bytes; those are checked by ERC-1271 instead).
 */
export function canonicalSignature(signature: string): Hex | null {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return null;
  try {
    const sig = parseSignature(signature as Hex);
    let s = BigInt(sig.s);
    let yParity = sig.yParity;
    if (s > SECP256K1_N / 2n) {
      s = SECP256K1_N - s;
      yParity = yParity === 0 ? 1 : 0;
    }
    return serializeSignature({ r: sig.r, s: `0x${s.toString(16).padStart(64, '0')}`, yParity });
  } catch {
    return null;
  }
}

/**
 * True when `signature` is an ECDSA signature by `expectedSigner` of exactly `typedDataJson`. Anything
 * malformed (not a 65-byte hex signature, unparsable JSON) is simply "does not verify".
 */
export async function verifyTransferAuthorization(typedDataJson: string, expectedSigner: string, signature: string): Promise<boolean> {
  const canonical = canonicalSignature(signature);
  if (!canonical) return false;
  try {
    const td = JSON.parse(typedDataJson) as TransferAuthorization;
    if (td.primaryType !== 'TransferWithAuthorization' && td.primaryType !== 'ReceiveWithAuthorization') return false;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- viem cannot infer its typed-data generics from a runtime value
    const recovered = recoverAddress(hashTypedData(td as any), canonical);
    return recovered === getAddress(expectedSigner) && getAddress(td.message.from) === getAddress(expectedSigner);
  } catch {
    return false;
  }
}
