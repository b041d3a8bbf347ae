import { encodeAbiParameters, getAddress, keccak256, type Address, type Hex } from 'viem';
import type { TransferAuthorization } from './eip3009';

// x402 in collector mode pays an address of the account's own (its deposit address, docs/x402.md "Whose payTo"),
// not the collector every account shares: the buyer's EIP-3009 authorization signs `to`, so only that account can
// settle it (a payload seen in transit is no use to another account). The deposit address never holds anything:
// the relayer sends the buyer's authorization (buyer to deposit address) and the deposit address's own
// (deposit address to the collector, of the same value) in one all-or-none Multicall3 call (src/domain/multicall3.ts),
// so the tokens reach the collector in the transaction that takes them from the buyer, as a collected payment's do.

/** What the onward authorization is valid before: never expires (it can only pay the collector, and only once). */
const NEVER = ((1n << 256n) - 1n).toString();

/**
 * The deposit address's authorization that moves what the buyer's `td` paid it on to `collector`: the same token and
 * value, valid from 0 and without expiry (a buyer's authorization used alone, by a third party, is passed on however
 * late the relayer gets to it), and a nonce of its own for each buyer authorization (one use, like the buyer's).
 */
export function depositAuthorization(td: TransferAuthorization, collector: string): TransferAuthorization {
  const m = td.message;
  const nonce = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [getAddress(m.from), m.nonce]));
  return {
    types: { EIP712Domain: td.types.EIP712Domain, TransferWithAuthorization: td.types.TransferWithAuthorization! },
    primaryType: 'TransferWithAuthorization',
    domain: td.domain,
    message: { from: getAddress(m.to), to: getAddress(collector), value: m.value, validAfter: '0', validBefore: NEVER, nonce },
  };
}

/** A deposit address's signer (its key never leaves src/usecases/x402/deposit.ts). */
export interface Deposit {
  address: Address;
  sign(td: TransferAuthorization): Promise<Hex>;
}
