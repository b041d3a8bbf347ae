import { getAddress, type Address, type Hex } from 'viem';

// A native-coin option's quote (issue 49): the buyer pays the chain's own coin with a transaction of their own to the
// router contract (contracts/router/PaygateRouter.sol), which forwards exactly `value` to `to` (the collector in
// collector mode, the merchant's destination in direct mode) under the payment's reference, or reverts (a wrong
// amount, a quote past its deadline, a reference paid already). Nothing is signed for the relayer: the quote is kept
// as the option's typed data (the same column as a token option's, so that what reads `message.to` reads it too),
// with the feed's round it was priced from. Its amounts are decimal strings: JSON has no big integers.

const NATIVE_PAYMENT = 'NativePayment';

/** The chain's own coin on one chain: the router the buyer pays through, and the price feeds that price it. */
export interface NativeCoin {
  router: Address;
  /** The feed per currency (ISO 4217), and how old its round may be (its heartbeat, seconds). */
  feeds: Record<string, { address: Address; heartbeatS: number }>;
  /** How far the price may move between the quote and fetch, in basis points, before the quote is refused. */
  toleranceBps: number;
}

export interface NativeQuote {
  primaryType: typeof NATIVE_PAYMENT;
  domain: { chainId: number };
  message: {
    /** The buyer: the only sender whose transaction pays this option. */
    from: Address;
    /** Where the router forwards the coin. */
    to: Address;
    /** Wei, decimal. */
    value: string;
    /** The payment's reference (bytes32) the router's `Paid` event names. */
    ref: Hex;
    /** Unix seconds: the router refuses the payment after it. */
    deadline: string;
    router: Address;
  };
  /** The price feed's round the amount was computed from (the currency's amount per coin, with `decimals`). */
  price: { currency: string; feed: Address; roundId: string; answer: string; decimals: number; updatedAt: string };
}

export const isNativeQuote = (td: { primaryType?: string }): td is NativeQuote => td.primaryType === NATIVE_PAYMENT;

/** The quote of a stored option's typed data, or null when it is a token option's. */
export function nativeQuoteOf(typedDataJson: string): NativeQuote | null {
  const td = JSON.parse(typedDataJson) as { primaryType?: string };
  return isNativeQuote(td) ? td : null;
}

export interface NativeQuoteInput {
  chainId: number;
  from: string;
  to: string;
  value: bigint;
  ref: Hex;
  deadline: number;
  router: string;
  price: { currency: string; feed: string; roundId: bigint; answer: bigint; decimals: number; updatedAt: bigint };
}

export function buildNativeQuote(i: NativeQuoteInput): NativeQuote {
  if (i.value <= 0n) throw new Error('value must be positive');
  return {
    primaryType: NATIVE_PAYMENT,
    domain: { chainId: i.chainId },
    message: {
      from: getAddress(i.from),
      to: getAddress(i.to),
      value: i.value.toString(),
      ref: i.ref,
      deadline: String(i.deadline),
      router: getAddress(i.router),
    },
    price: {
      currency: i.price.currency,
      feed: getAddress(i.price.feed),
      roundId: i.price.roundId.toString(),
      answer: i.price.answer.toString(),
      decimals: i.price.decimals,
      updatedAt: i.price.updatedAt.toString(),
    },
  };
}
