// Money is never a float: integer minor units as bigint in code, numeric(78,0) in PostgreSQL, decimal
// strings on the wire. This is the one module that parses and formats it.

export class MoneyError extends Error {}

/** ISO 4217 currencies we accept, with their minor-unit exponent. */
export const CURRENCIES: Record<string, number> = {
  USD: 2,
  EUR: 2,
  GBP: 2,
  CHF: 2,
  CAD: 2,
  AUD: 2,
  JPY: 0,
  SGD: 2,
  BRL: 2,
  MXN: 2,
};

export interface FiatAmount {
  currency: string;
  minor: bigint;
}

const MAX_MINOR = 10n ** 31n; // 31 digits, as the spec's pattern allows: far beyond any real payment

/** `{unit: "iso4217/USD", value: "1000"}` -> USD 10.00. */
export function parseFiatAmount(unit: string, value: string): FiatAmount {
  const m = /^iso4217\/([A-Z]{3})$/.exec(unit);
  if (!m) throw new MoneyError('unit must be iso4217/<CURRENCY_CODE>');
  if (!(m[1] in CURRENCIES)) throw new MoneyError(`unknown currency ${m[1]}`);
  if (!/^[1-9][0-9]*$/.test(value))
    throw new MoneyError('value must be an integer in minor units, digits only, no leading zero, greater than zero');
  const minor = BigInt(value);
  if (minor >= MAX_MINOR) throw new MoneyError('value is too large');
  return { currency: m[1], minor };
}

/** Converts a fiat amount to token base units at a 1:1 peg: USD 10.00 -> 10000000 for 6 decimals. */
export function pegToTokenUnits(amount: FiatAmount, tokenDecimals: number): bigint {
  const exp = CURRENCIES[amount.currency];
  if (tokenDecimals >= exp) return amount.minor * 10n ** BigInt(tokenDecimals - exp);
  const div = 10n ** BigInt(exp - tokenDecimals);
  return (amount.minor + div - 1n) / div; // round up: the merchant never receives less than asked
}

/**
 * Minor units as a canonical decimal in the major unit: USD 4050 -> "40.5", 4000 -> "40", 5 -> "0.05", JPY 4050 ->
 * "4050" (exact: string arithmetic; trailing zeros of the fraction dropped, as a JSON number is written).
 */
export function majorUnits(minor: bigint, exp: number): string {
  const sign = minor < 0n ? '-' : '';
  const digits = (minor < 0n ? -minor : minor).toString().padStart(exp + 1, '0');
  const whole = digits.slice(0, digits.length - exp);
  const fraction = digits.slice(digits.length - exp).replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

const SYMBOLS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥' };

/** For people: USD 123456 -> "$1,234.56", CHF 500 -> "CHF 5.00". Exact (string arithmetic, no float). */
export function formatFiat(amount: FiatAmount): string {
  const exp = CURRENCIES[amount.currency] ?? 2;
  const digits = amount.minor.toString().padStart(exp + 1, '0');
  const whole = digits.slice(0, digits.length - exp).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const text = exp ? `${whole}.${digits.slice(digits.length - exp)}` : whole;
  const symbol = SYMBOLS[amount.currency];
  return symbol ? `${symbol}${text}` : `${amount.currency} ${text}`;
}

/**
 * The service's fee on a payment of `amount` token units: a base (minor units of the payment currency,
 * converted by the token's peg) plus `bps` basis points of the amount, rounded down, never above the amount.
 * `pricedMinor`: the payment's amount in minor units when `amount` was priced from a feed (the chain's own coin, which
 * pegs to nothing): the base is converted at the payment's own rate instead, rounded down.
 */
export function feeInTokenUnits(
  amount: bigint,
  currency: string,
  tokenDecimals: number,
  baseMinor: bigint,
  bps: number,
  pricedMinor?: bigint,
): bigint {
  const pegged = () => pegToTokenUnits({ currency, minor: baseMinor }, tokenDecimals);
  const base = baseMinor <= 0n ? 0n : pricedMinor && pricedMinor > 0n ? (baseMinor * amount) / pricedMinor : pegged();
  const fee = base + (amount * BigInt(bps)) / 10_000n;
  return fee > amount ? amount : fee;
}

/**
 * A collected payment's settlement: what is sent to the merchant (`amount`, 0 when the fee takes it all) and
 * the fee, which stays in the collector until it is swept.
 */
export function settlementSplit(
  tokenAmount: bigint,
  currency: string,
  tokenDecimals: number,
  terms: { feeBaseMinor: bigint; feeBps: number },
  /** The payment's amount (minor units) when paid in the chain's own coin, priced from a feed (feeInTokenUnits). */
  pricedMinor?: bigint,
): { fee: bigint; amount: bigint } {
  const fee = feeInTokenUnits(tokenAmount, currency, tokenDecimals, terms.feeBaseMinor, terms.feeBps, pricedMinor);
  return { fee, amount: tokenAmount - fee };
}

/**
 * The payment amount (minor units of `currency`) of `units` token base units at a 1:1 peg, rounded up to a whole
 * minor unit: 10000 units of a 6-decimal USD token are 1 cent, and so are 1000 (USD 0.001, an x402 price) and 10001
 * is 2. The token amount stays what was paid; this is the payment's currency amount, which is never 0. Null for no
 * units or an unknown currency.
 */
export function tokenUnitsToPegMinor(units: bigint, currency: string, tokenDecimals: number): bigint | null {
  const exp = CURRENCIES[currency];
  if (exp === undefined || units <= 0n) return null;
  if (tokenDecimals <= exp) return units * 10n ** BigInt(exp - tokenDecimals);
  const div = 10n ** BigInt(tokenDecimals - exp);
  return (units + div - 1n) / div;
}
