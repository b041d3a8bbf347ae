import { getAddress } from 'viem';
import type { ErrorCode } from './errors';
import { PERMIT2_ADDRESS } from './permit2';

// Where a settlement may not send: destinations a transfer to would lose the funds or never arrive. The one rule
// of what a destination is refused for without asking the chain; the token's blacklist is asked beside it
// (src/usecases/merchants/settlementDestinations.ts). docs/api.md, "Settlements".

const ZERO = '0x0000000000000000000000000000000000000000';

export type DestinationRefusal = Extract<
  ErrorCode,
  'destination_zero_address' | 'destination_token_contract' | 'destination_permit2' | 'destination_instance_key'
>;

/**
 * Why `address` (EIP-55) cannot receive a settlement of the token at `token` on a chain where this instance holds
 * the keys `instanceAddresses` (collectors and relayers, retired ones too), or null when nothing here refuses it.
 */
export function destinationRefusal(address: string, token: string | null, instanceAddresses: readonly string[]): DestinationRefusal | null {
  const a = getAddress(address);
  if (a === ZERO) return 'destination_zero_address';
  if (token !== null && a === getAddress(token)) return 'destination_token_contract';
  if (a === PERMIT2_ADDRESS) return 'destination_permit2';
  if (instanceAddresses.some((k) => getAddress(k) === a)) return 'destination_instance_key';
  return null;
}
