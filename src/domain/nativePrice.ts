// What a payment in a currency costs in the chain's native coin, at a price feed's answer (src/chain/priceFeed.ts),
// and whether that answer may still be used. Integers only (bigint): a price is `answer` with `decimals` decimals
// (Chainlink's ETH / USD: 8), an amount of the currency is `minor` units with its exponent (USD: 2), an amount of
// the coin is its smallest units (wei: 18 decimals). Never a float anywhere.

const pow10 = (n: number, what: string): bigint => {
  if (!Number.isInteger(n) || n < 0 || n > 77) throw new RangeError(`${what} must be an integer from 0 to 77, not ${n}`);
  return 10n ** BigInt(n);
};

/**
 * The coin's smallest units that `minor` minor units of a currency with `exponent` decimals cost at `price`
 * (1 coin = answer / 10^decimals of the currency): minor * 10^coinDecimals * 10^decimals / (answer * 10^exponent),
 * rounded up, so the merchant never receives less than the amount. 10.00 USD at 3000.00000000 is
 * 3333333333333334 wei.
 */
export function weiForMinor(minor: bigint, exponent: number, price: { answer: bigint; decimals: number }, coinDecimals = 18): bigint {
  if (minor < 0n) throw new RangeError(`the amount must not be negative, not ${minor}`);
  if (price.answer <= 0n) throw new RangeError(`the price must be more than 0, not ${price.answer}`);
  const numerator = minor * pow10(coinDecimals, 'the coin decimals') * pow10(price.decimals, "the price's decimals");
  const denominator = price.answer * pow10(exponent, "the currency's exponent");
  return (numerator + denominator - 1n) / denominator;
}

/** An answer updated at `updatedAt` is stale at `nowS` (both unix seconds) once more than `heartbeatS` have passed. */
export function isStale(updatedAt: bigint, nowS: bigint, heartbeatS: number): boolean {
  if (!Number.isSafeInteger(heartbeatS) || heartbeatS < 0)
    throw new RangeError(`the heartbeat must be a whole number of seconds, not ${heartbeatS}`);
  return nowS - updatedAt > BigInt(heartbeatS);
}

/** `current` differs from `quoted` by more than `toleranceBps` basis points of `quoted` (exactly that much is within). */
export function movedBeyond(quoted: bigint, current: bigint, toleranceBps: number): boolean {
  if (!Number.isSafeInteger(toleranceBps) || toleranceBps < 0)
    throw new RangeError(`the tolerance must be a whole number of basis points, not ${toleranceBps}`);
  const diff = current > quoted ? current - quoted : quoted - current;
  return diff * 10_000n > quoted * BigInt(toleranceBps);
}
