import { ConfigError } from '../../src/config/env';
import { refundSettings } from '../../src/config/refunds';
import { REFUND_TRANSFER_GAS, refundLimitRefusal, refundMinimumMinor } from '../../src/domain/refundLimits';

// The minimum of a partial refund and the refunds a payment takes (docs/limits.md "Refunds"): the rule in pure code,
// and its settings as docs/configuration.md states them. tests/integration/refundLimits.test.ts holds them over HTTP.

const GWEI = 10n ** 9n;

describe('the minimum of a partial refund', () => {
  it('is the gas of one transfer at the fee, one coin worth the price, rounded up; never below the floor', () => {
    const usdPerEther = 10_000n * 100n; // in cents
    expect(REFUND_TRANSFER_GAS).toBe(65_000n);
    expect(refundMinimumMinor(50n, GWEI, usdPerEther)).toBe(65n); // 65,000 gas × 1 gwei at USD 10,000: USD 0.65
    expect(refundMinimumMinor(50n, GWEI + 1n, usdPerEther)).toBe(66n);
    expect(refundMinimumMinor(50n, 30n * GWEI, usdPerEther)).toBe(1950n); // 30 gwei: USD 19.50
    expect(refundMinimumMinor(50n, GWEI / 100n, usdPerEther)).toBe(50n); // an L2's 0.01 gwei: the floor
    expect(refundMinimumMinor(1n, 0n, usdPerEther)).toBe(1n);
  });

  it('refuses a partial refund below it or one that would be the last; a refund of all that is left never', () => {
    const limits = { maxPerPayment: 10, minimumMinor: 66n };
    const at = (minor: bigint, left: bigint, count: number) =>
      refundLimitRefusal({ minor, left, count, currency: 'USD' }, limits)?.code ?? null;
    expect(at(1n, 100n, 0)).toBe('refund_below_minimum');
    expect(at(65n, 100n, 0)).toBe('refund_below_minimum');
    expect(at(66n, 100n, 0)).toBeNull();
    expect(at(30n, 30n, 0)).toBeNull(); // all that is left, below the minimum
    expect(at(100n, 1000n, 8)).toBeNull(); // the 9th
    expect(at(100n, 1000n, 9)).toBe('too_many_refunds'); // would be the 10th and leave something
    expect(at(1000n, 1000n, 9)).toBeNull();
    expect(at(1000n, 1000n, 25)).toBeNull(); // refunds from before the rule: the rest is still refunded
    expect(refundLimitRefusal({ minor: 10n, left: 100n, count: 0, currency: 'USD' }, limits)?.message).toBe(
      'A partial refund must be at least $0.66 (minimum 66 in minor units), or refund all that is left ($1.00).',
    );
  });
});

describe('refund settings', () => {
  it('defaults: 10 refunds, Stripe’s smallest charges as floors, ether at about twice its highest price, POL a thousandth', () => {
    const s = refundSettings({});
    expect(s.maxPerPayment).toBe(10);
    expect([s.minMinor.USD, s.minMinor.GBP, s.minMinor.JPY, s.minMinor.MXN]).toEqual([50n, 30n, 50n, 1000n]);
    expect(s.nativePriceMinor('eip155:8453', 'USD')).toBe(1_000_000n);
    expect(s.nativePriceMinor('eip155:31337', 'JPY')).toBe(1_600_000n);
    expect(s.nativePriceMinor('eip155:137', 'USD')).toBe(1_000n);
  });

  it('takes the operator’s values and refuses what it cannot use, naming the variable', () => {
    const s = refundSettings({ REFUND_MAX_PER_PAYMENT: '3', REFUND_MIN_EUR_MINOR: '200', CHAIN_8453_NATIVE_PRICE_USD: '2500' });
    expect([s.maxPerPayment, s.minMinor.EUR, s.nativePriceMinor('eip155:8453', 'USD'), s.nativePriceMinor('eip155:1', 'USD')]).toEqual([
      3,
      200n,
      250_000n,
      1_000_000n,
    ]);
    expect(() => refundSettings({ CHAIN_8453_NATIVE_PRICE_XYZ: '1' })).toThrow(ConfigError);
    expect(() => refundSettings({ CHAIN_8453_NATIVE_PRICE_USD: '2.5' })).toThrow(/CHAIN_8453_NATIVE_PRICE_USD must be an integer/);
    expect(() => refundSettings({ REFUND_MAX_PER_PAYMENT: '0' })).toThrow(/REFUND_MAX_PER_PAYMENT must be between 1 and 10000/);
    expect(() => refundSettings({ REFUND_MIN_USD_MINOR: '0' })).toThrow(/REFUND_MIN_USD_MINOR/);
  });
});
