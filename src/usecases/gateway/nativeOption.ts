import { toHex, type Hex } from 'viem';
import { encodeRouterPay, paymentRef } from '../../chain/nativeRouter';
import { ChainUnavailable, type ChainWork, type NativeTerms } from '../../domain/chain';
import type { AccountId } from '../../domain/caip';
import { AppError } from '../../domain/errors';
import { CURRENCIES } from '../../domain/money';
import { movedBeyond, weiForMinor } from '../../domain/nativePrice';
import { buildNativeQuote, type NativeQuote } from '../../domain/nativeQuote';

// Options in the chain's own coin (issue 49): priced from the chain's price feed for the payment's currency (rounded
// up: the merchant never receives less), paid by the buyer's own transaction to the router, which forwards the coin
// to `to`. The option carries one `build` action; fetch checks the price again (409 price_stale, price_moved) and
// answers the `eth_sendTransaction` the wallet sends. Offered where the chain has a router and a fresh feed for the
// currency, in either mode: in collector mode the router forwards the coin to the collector, and the relayer settles it
// onward, refunds it and the ledger books it like a token (docs/native.md).

/** Room left between the router's deadline and the payment's expiry, for the confirm of a transaction mined just in time. */
const CONFIRM_ROOM_S = 120;
/** A quote whose router deadline is nearer than this is not offered: the buyer could not send in time. */
const MIN_PAY_WINDOW_S = 30;
/** What the option's build action carries (the hosted wire form passes `data.data` to fetch); fetch accepts any. */
export const NATIVE_BUILD_DATA = 'native';

const unavailable = () =>
  new AppError('service_unavailable', "The chain's RPC node cannot be reached; try again shortly.", undefined, { 'Retry-After': '2' });

/** The chain's native terms for a currency, read once per options call and chain. */
export function nativeTermsReader(chainWork: ChainWork) {
  const read = new Map<string, Promise<NativeTerms | null>>();
  return (chainId: string, currency: string): Promise<NativeTerms | null> => {
    const key = `${chainId} ${currency}`;
    if (!read.has(key))
      read.set(
        key,
        chainWork.nativeTerms(chainId, currency).catch((e) => {
          if (e instanceof ChainUnavailable) throw unavailable();
          throw e;
        }),
      );
    return read.get(key)!;
  };
}

export interface NativeOfferInput {
  paymentId: string;
  currency: string;
  amountMinor: bigint;
  paymentExpiresAt: number;
  account: AccountId;
  /** Where the router forwards the coin. */
  to: string;
  /** The quote's expiry (unix seconds). */
  expiresAt: number;
  now: number;
}

/** The option's quote (its typed data) and amount in wei, or null when the coin is not offered for this payment now. */
export function nativeOffer(terms: NativeTerms | null, i: NativeOfferInput): { quote: NativeQuote; wei: bigint } | null {
  if (!terms || terms.price.stale) return null;
  const deadline = Math.min(i.expiresAt, i.paymentExpiresAt - CONFIRM_ROOM_S);
  if (deadline < i.now + MIN_PAY_WINDOW_S) return null;
  const wei = weiForMinor(i.amountMinor, CURRENCIES[i.currency], terms.price);
  const quote = buildNativeQuote({
    chainId: Number(i.account.chain.reference),
    from: i.account.address,
    to: i.to,
    value: wei,
    ref: paymentRef(i.paymentId),
    deadline,
    router: terms.router,
    price: { currency: i.currency, ...terms.price },
  });
  return { quote, wei };
}

/** The transaction the wallet sends: to the router, the quoted value, the pay call (every field hex, as JSON-RPC takes it). */
export function nativeTransaction(q: NativeQuote): { from: string; to: string; value: Hex; data: Hex } {
  const m = q.message;
  return {
    from: m.from,
    to: m.router,
    value: toHex(BigInt(m.value)),
    data: encodeRouterPay({ ref: m.ref, to: m.to, amount: BigInt(m.value), deadline: BigInt(m.deadline) }),
  };
}

/**
 * fetch of a native option: the feed read again. A round older than its heartbeat is 409 price_stale; a price moved
 * beyond the chain's tolerance from the quoted one is 409 price_moved (ask for options again); else the quoted amount
 * holds until the quote expires.
 */
export async function checkNativePrice(chainWork: ChainWork, chainId: string, q: NativeQuote): Promise<void> {
  const terms = await nativeTermsReader(chainWork)(chainId, q.price.currency);
  if (!terms) throw new AppError('price_stale', 'The price feed of this option is no longer configured: ask for options again.');
  if (terms.price.stale) throw new AppError('price_stale');
  if (movedBeyond(BigInt(q.price.answer), terms.price.answer, terms.toleranceBps)) throw new AppError('price_moved');
}
