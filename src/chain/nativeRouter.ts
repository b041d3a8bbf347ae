import {
  decodeEventLog,
  decodeFunctionData,
  encodeFunctionData,
  getAddress,
  keccak256,
  parseAbi,
  stringToBytes,
  toFunctionSelector,
  type Address,
  type Hex,
} from 'viem';
import { NATIVE_NONCES, nativeContractAddress, nativeDeployer } from './devnet';

// Payments in the chain's native coin go through PaygateRouter (contracts/router/PaygateRouter.sol): the buyer calls
// pay(ref, to, amount, deadline) with `amount` wei, the router forwards it all to `to` and logs Paid, whose `ref`
// says which payment it was. This module encodes the call and reads it back, from a transaction's input or its logs.

export const ROUTER_ABI = parseAbi([
  'function pay(bytes32 ref, address to, uint256 amount, uint256 deadline) payable',
  'function isPaid(bytes32 ref, address payer) view returns (bool)',
  'event Paid(bytes32 indexed ref, address indexed payer, address indexed to, uint256 amount)',
]);

export { nativeDeployer };

/** The router on the development chains: nativeDeployer's first contract (src/chain/devnetNative.ts deploys it). */
export const devnetRouterAddress: Address = nativeContractAddress(NATIVE_NONCES.router);

/** The router's `ref` for a payment: keccak256 of its id's UTF-8 bytes. */
export const paymentRef = (paymentId: string): Hex => keccak256(stringToBytes(paymentId));

export interface RouterPay {
  ref: Hex;
  to: Address;
  amount: bigint;
  /** Unix time, seconds: the router refuses the call in a later block. */
  deadline: bigint;
}

/** The calldata of pay(ref, to, amount, deadline); the transaction's value must be `amount`. */
export const encodeRouterPay = (p: RouterPay): Hex =>
  encodeFunctionData({ abi: ROUTER_ABI, functionName: 'pay', args: [p.ref, getAddress(p.to), p.amount, p.deadline] });

const PAY_SELECTOR = toFunctionSelector(ROUTER_ABI[0]);
// The selector and four 32-byte words.
const PAY_HEX_LENGTH = 2 + 2 * (4 + 4 * 32);

/**
 * The arguments of a pay call's calldata, or null when `data` is not exactly one: another selector, another length,
 * or words that do not decode, or decode only loosely (an address word with bits above its 20 bytes): the
 * arguments are given only when encoding them again gives `data`.
 */
export function decodeRouterPay(data: Hex): RouterPay | null {
  if (typeof data !== 'string' || data.length !== PAY_HEX_LENGTH || data.slice(0, 10).toLowerCase() !== PAY_SELECTOR) return null;
  try {
    const { functionName, args } = decodeFunctionData({ abi: ROUTER_ABI, data });
    if (functionName !== 'pay') return null;
    const [ref, to, amount, deadline] = args;
    const p = { ref: ref.toLowerCase() as Hex, to: getAddress(to), amount, deadline };
    return encodeRouterPay(p) === data.toLowerCase() ? p : null;
  } catch {
    return null;
  }
}

export interface PaidEvent {
  ref: Hex;
  payer: Address;
  to: Address;
  amount: bigint;
}

/** The Paid events among `logs` (a receipt's, say) that `router` emitted, in their order; addresses checksummed. */
export function paidEvents(logs: { address: Address; topics: Hex[]; data: Hex }[], router: Address): PaidEvent[] {
  const from = getAddress(router);
  const out: PaidEvent[] = [];
  for (const log of logs) {
    if (getAddress(log.address) !== from) continue;
    try {
      const e = decodeEventLog({ abi: ROUTER_ABI, eventName: 'Paid', topics: log.topics as [Hex, ...Hex[]], data: log.data, strict: true });
      out.push({ ref: e.args.ref.toLowerCase() as Hex, payer: getAddress(e.args.payer), to: getAddress(e.args.to), amount: e.args.amount });
    } catch {
      // Another event of the router's (it has none today), or a log that is not a well-formed Paid.
    }
  }
  return out;
}
