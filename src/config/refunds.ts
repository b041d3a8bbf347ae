import { CURRENCIES } from '../domain/money';
import { ConfigError, int } from './env';

// What a partner may ask of the relayer's gas through refunds (docs/limits.md "Refunds"): a minimum amount per
// partial refund and a number of refunds per payment. docs/configuration.md gives each default and its reason.

export interface RefundSettings {
  /** Refunds of one payment (not failed) at most; the last of them must refund all that is left (REFUND_MAX_PER_PAYMENT). */
  maxPerPayment: number;
  /**
   * Funding payments of one refund at most; the refund fails `funding_expired` when the last ends unpaid
   * (REFUND_FUNDING_MAX_PAYMENTS).
   */
  fundingMaxPayments: number;
  /** The operator's floor of a partial refund, in minor units, per currency (REFUND_MIN_<CUR>_MINOR). */
  minMinor: Record<string, bigint>;
  /**
   * Minor units of `currency` that one native coin (10^18 wei) of chain `caip2` is taken to be worth
   * (CHAIN_<id>_NATIVE_PRICE_<CUR>, in whole units): no price feed is asked, so the defaults are set high.
   */
  nativePriceMinor(caip2: string, currency: string): bigint;
}

/**
 * The smallest amounts card processors accept for a charge (Stripe's minimums), as a floor nobody will find
 * surprising: a refund smaller than a card payment can be is not worth a transfer.
 */
const FLOOR_MINOR: Record<string, bigint> = {
  USD: 50n,
  EUR: 50n,
  GBP: 30n,
  CHF: 50n,
  CAD: 50n,
  AUD: 50n,
  JPY: 50n,
  SGD: 50n,
  BRL: 50n,
  MXN: 1000n,
};

/**
 * One ether in whole units of each currency, about twice its highest price so far: a refund too small is the
 * operator's loss, one refused is a partner's inconvenience (it can still refund all that is left).
 */
const ETHER_PRICE: Record<string, bigint> = {
  USD: 10_000n,
  EUR: 10_000n,
  GBP: 8_000n,
  CHF: 10_000n,
  CAD: 14_000n,
  AUD: 16_000n,
  JPY: 1_600_000n,
  SGD: 14_000n,
  BRL: 60_000n,
  MXN: 200_000n,
};

/** Chains whose native coin is POL (Polygon PoS and its Amoy testnet), priced at a thousandth of an ether, still above its highest. */
const POL_CHAINS = new Set(['eip155:137', 'eip155:80002']);

const PRICE_VAR = /^CHAIN_(\d{1,20})_NATIVE_PRICE_([A-Z]{3})$/;

export function refundSettings(env: NodeJS.ProcessEnv): RefundSettings {
  const minMinor: Record<string, bigint> = {};
  for (const cur of Object.keys(CURRENCIES))
    minMinor[cur] = BigInt(int(env, `REFUND_MIN_${cur}_MINOR`, Number(FLOOR_MINOR[cur] ?? 0n), 1, Number.MAX_SAFE_INTEGER));
  const prices = new Map<string, bigint>();
  for (const name of Object.keys(env)) {
    const m = PRICE_VAR.exec(name);
    if (!m || env[name] === undefined || env[name] === '') continue;
    if (!(m[2] in CURRENCIES))
      throw new ConfigError(`${name}: ${m[2]} is not a currency this service takes (${Object.keys(CURRENCIES).join(', ')})`);
    prices.set(`eip155:${m[1]}/${m[2]}`, BigInt(int(env, name, 0, 0, 1_000_000_000_000)));
  }
  return {
    maxPerPayment: int(env, 'REFUND_MAX_PER_PAYMENT', 10, 1, 10_000),
    fundingMaxPayments: int(env, 'REFUND_FUNDING_MAX_PAYMENTS', 7, 1, 1000),
    minMinor,
    nativePriceMinor: (caip2, currency) => {
      const whole = prices.get(`${caip2}/${currency}`) ?? (ETHER_PRICE[currency] ?? 0n) / (POL_CHAINS.has(caip2) ? 1000n : 1n);
      return whole * 10n ** BigInt(CURRENCIES[currency] ?? 0);
    },
  };
}

/**
 * The operator's refund reserve (docs/ledger.md "Refund reserve"): the share of each collected payment, in basis
 * points of the account's share, held at the collector for `windowMinutes` before it settles on to the merchant, so
 * that a refund inside the window goes out at once. An account may override either (`admin accounts set-reserve`).
 * Off in production unless set; in development (`make start`) all of it for 5 minutes, so a refund tried after a
 * payment pays the buyer back at once.
 */
export interface ReserveSettings {
  bps: number;
  windowMinutes: number;
}

export function reserveSettings(env: NodeJS.ProcessEnv, nodeEnv: string): ReserveSettings {
  const dev = nodeEnv === 'development';
  return {
    bps: int(env, 'REFUND_RESERVE_BPS', dev ? 10_000 : 0, 0, 10_000),
    windowMinutes: int(env, 'REFUND_RESERVE_WINDOW_MINUTES', dev ? 5 : 0, 0, 44_640),
  };
}
