import { randomBytes } from 'node:crypto';
import { getAddress, recoverTypedDataAddress, type Hex } from 'viem';

// EIP-3009 `TransferWithAuthorization` as EIP-712 typed data: what the wallet signs and what the chain
// adapter later submits. The typed data is built once, serialised once, stored as that exact string and
// handed to the wallet; confirm recovers the signer from the stored string, so every field (token, chain,
// amount, recipient, validity window, nonce) is checked by the signature itself.

export const EIP712_DOMAIN_TYPE = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const;

export const TRANSFER_WITH_AUTHORIZATION_TYPE = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
] as const;

export interface TransferAuthorizationInput {
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
  types: { EIP712Domain: typeof EIP712_DOMAIN_TYPE; TransferWithAuthorization: typeof TRANSFER_WITH_AUTHORIZATION_TYPE };
  primaryType: 'TransferWithAuthorization';
  domain: { name: string; version: string; chainId: number; verifyingContract: string };
  message: { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: Hex };
}

export const randomNonce = (): Hex => `0x${randomBytes(32).toString('hex')}`;

/** uint256 values are decimal strings: JSON has no big integers and eth_signTypedData_v4 accepts them. */
export function buildTransferAuthorization(i: TransferAuthorizationInput): TransferAuthorization {
  if (i.value <= 0n) throw new Error('value must be positive');
  if (!/^0x[0-9a-f]{64}$/.test(i.nonce)) throw new Error('nonce must be 32 bytes of lower-case hex');
  return {
    types: { EIP712Domain: EIP712_DOMAIN_TYPE, TransferWithAuthorization: TRANSFER_WITH_AUTHORIZATION_TYPE },
    primaryType: 'TransferWithAuthorization',
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

/**
 * True when `signature` is a signature by `expectedSigner` of exactly `typedDataJson`. Anything
 * malformed (not a 65-byte hex signature, unparsable JSON) is simply "does not verify".
 */
export async function verifyTransferAuthorization(typedDataJson: string, expectedSigner: string, signature: string): Promise<boolean> {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return false;
  try {
    const td = JSON.parse(typedDataJson) as TransferAuthorization;
    if (td.primaryType !== 'TransferWithAuthorization') return false;
    const recovered = await recoverTypedDataAddress({ ...(td as any), signature: signature as Hex });
    return getAddress(recovered) === getAddress(expectedSigner) && getAddress(td.message.from) === getAddress(expectedSigner);
  } catch {
    return false;
  }
}
