import { decodeFunctionData, encodeFunctionData, getAddress, hashTypedData, maxUint256, parseAbi, type Address, type Hex } from 'viem';
import { canonicalSignature } from './eip3009';
import { recoverAddress } from './secp256k1';

// Permit2 (Uniswap's SignatureTransfer) for tokens without EIP-3009 (USDT and any ERC-20): the buyer approves
// Permit2 once (an `approve(Permit2, 2^256-1)` transaction the wallet sends and pays gas for), then signs a
// `PermitTransferFrom` per payment. Only the `spender` it names (the relayer key that submits) may execute it, and
// it moves the tokens to a recipient the spender chooses: the relayer in collector mode, the merchant's destination
// in direct mode (stored with the option, never in the typed data). Nonces are unordered: any unused 256-bit
// value, one bit of the owner's `nonceBitmap(owner, nonce >> 8)`. The typed data has the hosted service's plain
// form (no `EIP712Domain` in `types`, no domain version): wallet SDKs refuse extra domain fields.

/** Permit2's address on every chain. */
export const PERMIT2_ADDRESS: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3';

export const PERMIT2_ABI = parseAbi([
  'struct TokenPermissions { address token; uint256 amount; }',
  'struct PermitTransferFrom { TokenPermissions permitted; uint256 nonce; uint256 deadline; }',
  'struct SignatureTransferDetails { address to; uint256 requestedAmount; }',
  'function permitTransferFrom(PermitTransferFrom permit, SignatureTransferDetails transferDetails, address owner, bytes signature)',
  'function nonceBitmap(address owner, uint256 wordPos) view returns (uint256)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'error InvalidNonce()',
  'error SignatureExpired(uint256 signatureDeadline)',
  'error InvalidSigner()',
  'error InvalidSignature()',
  'error InvalidSignatureLength()',
  'error InvalidContractSignature()',
]);

/** The ERC-20 calls of the Permit2 path (Tether's `approve` returns nothing: its result is never read). */
export const ERC20_ALLOWANCE_ABI = parseAbi([
  'function approve(address spender, uint256 value)',
  'function allowance(address owner, address spender) view returns (uint256)',
]);

const PERMIT_TYPES = {
  PermitTransferFrom: [
    { name: 'permitted', type: 'TokenPermissions' },
    { name: 'spender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
  TokenPermissions: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
} as const;

export interface PermitInput {
  chainId: number;
  token: string;
  amount: bigint;
  spender: string;
  /** 32 bytes of lower-case hex (as stored); signed as the uint256 it encodes. */
  nonce: Hex;
  deadline: number;
}

export interface PermitTypedData {
  types: typeof PERMIT_TYPES;
  primaryType: 'PermitTransferFrom';
  domain: { name: 'Permit2'; chainId: number; verifyingContract: Address };
  message: { permitted: { token: string; amount: string }; spender: string; nonce: string; deadline: string };
}

/** uint256 values are decimal strings, as the EIP-3009 typed data has them. */
export function buildPermitTransferFrom(i: PermitInput): PermitTypedData {
  if (i.amount <= 0n) throw new Error('amount must be positive');
  if (!/^0x[0-9a-f]{64}$/.test(i.nonce)) throw new Error('nonce must be 32 bytes of lower-case hex');
  return {
    types: PERMIT_TYPES,
    primaryType: 'PermitTransferFrom',
    domain: { name: 'Permit2', chainId: i.chainId, verifyingContract: PERMIT2_ADDRESS },
    message: {
      permitted: { token: getAddress(i.token), amount: i.amount.toString() },
      spender: getAddress(i.spender),
      nonce: BigInt(i.nonce).toString(),
      deadline: String(i.deadline),
    },
  };
}

export const isPermit = (td: { primaryType: string }): td is PermitTypedData => td.primaryType === 'PermitTransferFrom';

/** The typed data's EIP-712 digest (EIP712Domain derived from the domain's fields, as wallets do). */
export const permitDigest = (td: PermitTypedData): Hex =>
  hashTypedData({ domain: td.domain, types: td.types, primaryType: td.primaryType, message: td.message as never });

/** True when `signature` is an ECDSA signature by `owner` of exactly the permit in `typedDataJson`. */
export function verifyPermit(typedDataJson: string, owner: string, signature: string): boolean {
  const canonical = canonicalSignature(signature);
  if (!canonical) return false;
  try {
    const td = JSON.parse(typedDataJson) as PermitTypedData;
    if (!isPermit(td)) return false;
    return recoverAddress(permitDigest(td), canonical) === getAddress(owner);
  } catch {
    return false;
  }
}

/** The Permit2 word and bit that record the nonce's use. */
export function nonceBit(n: bigint): { wordPos: bigint; mask: bigint } {
  return { wordPos: n >> 8n, mask: 1n << (n & 0xffn) };
}

/** `permitTransferFrom` for the permit, moving its whole amount to `to`, signed by `owner`. */
export function permitTransferCall(td: PermitTypedData, owner: string, to: string, signature: Hex): { to: Address; data: Hex } {
  const m = td.message;
  const permit = {
    permitted: { token: getAddress(m.permitted.token), amount: BigInt(m.permitted.amount) },
    nonce: BigInt(m.nonce),
    deadline: BigInt(m.deadline),
  };
  const details = { to: getAddress(to), requestedAmount: BigInt(m.permitted.amount) };
  return {
    to: getAddress(td.domain.verifyingContract),
    data: encodeFunctionData({
      abi: PERMIT2_ABI,
      functionName: 'permitTransferFrom',
      args: [permit, details, getAddress(owner), signature],
    }),
  };
}

/** The buyer's one-time approval: the wallet's `eth_sendTransaction` parameters. */
export function approveTransaction(token: string, owner: string): { from: Address; to: Address; value: '0x0'; data: Hex } {
  return {
    from: getAddress(owner),
    to: getAddress(token),
    value: '0x0',
    data: encodeFunctionData({ abi: ERC20_ALLOWANCE_ABI, functionName: 'approve', args: [PERMIT2_ADDRESS, maxUint256] }),
  };
}

/** What a permit moves, and until when, in numbers. */
export interface PermitTerms {
  token: Address;
  amount: bigint;
  nonce: bigint;
  deadline: bigint;
}

export const permitTerms = (td: PermitTypedData): PermitTerms => ({
  token: getAddress(td.message.permitted.token),
  amount: BigInt(td.message.permitted.amount),
  nonce: BigInt(td.message.nonce),
  deadline: BigInt(td.message.deadline),
});

/** The permit a `permitTransferFrom` call executes, and its owner and recipient; null for any other call. */
export function permitOfCall(data: Hex): { permit: PermitTerms; owner: Address; to: Address } | null {
  try {
    const { functionName, args } = decodeFunctionData({ abi: PERMIT2_ABI, data });
    if (functionName !== 'permitTransferFrom') return null;
    const [p, details, owner] = args;
    const permit = { token: getAddress(p.permitted.token), amount: p.permitted.amount, nonce: p.nonce, deadline: p.deadline };
    return { permit, owner: getAddress(owner), to: getAddress(details.to) };
  } catch {
    return null;
  }
}

/** The permit's nonce as the 32 bytes of lower-case hex that claim it (src/db/relayer/). */
export const permitNonceHex = (nonce: bigint): Hex => `0x${nonce.toString(16).padStart(64, '0')}`;
