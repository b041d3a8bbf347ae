import { settlementSplit } from '../../src/domain/money';
import { isStale, movedBeyond, weiForMinor } from '../../src/domain/nativePrice';

// What a payment costs in the native coin at a feed's price, worked out by hand: minor * 10^18 * 10^decimals /
// (answer * 10^exponent), rounded up.

const USD_3000 = { answer: 3000_00000000n, decimals: 8 };

describe('weiForMinor', () => {
  it('10.00 USD at 3000.00000000 is 10^29 / (3 * 10^13) wei, rounded up', () => {
    expect(weiForMinor(1000n, 2, USD_3000)).toBe(3333333333333334n);
    // 0.01 USD: 10^26 / (3 * 10^13) = 3333333333333.33…
    expect(weiForMinor(1n, 2, USD_3000)).toBe(3333333333334n);
  });

  it('an exact division is not rounded up', () => {
    expect(weiForMinor(3000n, 2, USD_3000)).toBe(10n ** 16n); // 30.00 USD = 0.01 ETH
    expect(weiForMinor(300000n, 2, USD_3000)).toBe(10n ** 18n); // 3000.00 USD = 1 ETH
    expect(weiForMinor(2750n, 2, { answer: 2750_00000000n, decimals: 8 })).toBe(10n ** 16n); // 27.50 EUR
    expect(weiForMinor(0n, 2, USD_3000)).toBe(0n);
  });

  it("takes the currency's exponent, the feed's decimals and the coin's decimals", () => {
    // 500 JPY (exponent 0) at 450000.00000000: 5 * 10^28 / (4.5 * 10^13) = 1111111111111111.1…
    expect(weiForMinor(500n, 0, { answer: 450000_00000000n, decimals: 8 })).toBe(1111111111111112n);
    // The same price with 18 decimals gives the same wei.
    expect(weiForMinor(1000n, 2, { answer: 3000n * 10n ** 18n, decimals: 18 })).toBe(3333333333333334n);
    // A coin of 6 decimals: 10^17 / (3 * 10^13) = 3333.3…
    expect(weiForMinor(1000n, 2, USD_3000, 6)).toBe(3334n);
    // 3000.50000000 USD per ETH: 10^29 / (3.0005 * 10^13) = 3332777870354940.8…
    expect(weiForMinor(1000n, 2, { answer: 3000_50000000n, decimals: 8 })).toBe(3332777870354941n);
  });

  it('never less than the amount is worth, and never one wei more than needed', () => {
    for (const minor of [1n, 7n, 999n, 1000n, 123456789n, 10n ** 20n])
      for (const answer of [1n, 3n, 3000_00000000n, 2750_12345678n, 99999_99999999n]) {
        const wei = weiForMinor(minor, 2, { answer, decimals: 8 });
        const owed = minor * 10n ** 18n * 10n ** 8n; // in units of wei * answer * 10^exponent
        expect(wei * answer * 100n >= owed).toBe(true);
        expect((wei - 1n) * answer * 100n < owed).toBe(true);
      }
  });

  it('refuses a price that is not one, a negative amount and impossible decimals', () => {
    expect(() => weiForMinor(1000n, 2, { answer: 0n, decimals: 8 })).toThrow(RangeError);
    expect(() => weiForMinor(1000n, 2, { answer: -1n, decimals: 8 })).toThrow(RangeError);
    expect(() => weiForMinor(-1n, 2, USD_3000)).toThrow(RangeError);
    expect(() => weiForMinor(1n, 2.5, USD_3000)).toThrow(RangeError);
    expect(() => weiForMinor(1n, 2, { answer: 1n, decimals: -1 })).toThrow(RangeError);
  });
});

describe('isStale', () => {
  it('stale only once more than the heartbeat has passed', () => {
    expect(isStale(1000n, 4600n, 3600)).toBe(false); // exactly the heartbeat
    expect(isStale(1000n, 4601n, 3600)).toBe(true);
    expect(isStale(1000n, 1000n, 0)).toBe(false);
    expect(isStale(1000n, 1001n, 0)).toBe(true);
    expect(isStale(5000n, 4600n, 3600)).toBe(false); // updated "after" now: a node's clock ahead of ours
    expect(() => isStale(1000n, 4600n, 1.5)).toThrow(RangeError);
  });
});

describe('movedBeyond', () => {
  it('beyond the tolerance in basis points of the quoted amount, either way', () => {
    expect(movedBeyond(10_000n, 10_050n, 50)).toBe(false); // exactly 0.5 %
    expect(movedBeyond(10_000n, 10_051n, 50)).toBe(true);
    expect(movedBeyond(10_000n, 9_950n, 50)).toBe(false);
    expect(movedBeyond(10_000n, 9_949n, 50)).toBe(true);
    expect(movedBeyond(3333333333333334n, 3333333333333334n, 0)).toBe(false);
    expect(movedBeyond(3333333333333334n, 3333333333333335n, 0)).toBe(true);
    // 1 % of 3333333333333334 wei is 33333333333333.34: 33333333333333 more is within, 33333333333334 beyond.
    expect(movedBeyond(3333333333333334n, 3333333333333334n + 33333333333333n, 100)).toBe(false);
    expect(movedBeyond(3333333333333334n, 3333333333333334n + 33333333333334n, 100)).toBe(true);
    expect(() => movedBeyond(1n, 1n, -1)).toThrow(RangeError);
  });
});

describe('the fee on a payment in the native coin (collector mode)', () => {
  it('converts the base fee at the payment’s own rate, not at a peg (the coin pegs to nothing)', () => {
    const wei = weiForMinor(1000n, 2, USD_3000); // USD 10.00
    const terms = { feeBaseMinor: 10n, feeBps: 100 }; // USD 0.10 + 1 %
    const fee = (10n * wei) / 1000n + (wei * 100n) / 10_000n;
    expect(settlementSplit(wei, 'USD', 18, terms, 1000n)).toEqual({ fee, amount: wei - fee });
    // At a peg, USD 0.10 would be 0.1 ETH: the whole payment.
    expect(settlementSplit(wei, 'USD', 18, terms)).toEqual({ fee: wei, amount: 0n });
    // No base fee: the percentage alone, either way.
    expect(settlementSplit(wei, 'USD', 18, { feeBaseMinor: 0n, feeBps: 100 }, 1000n).fee).toBe(wei / 100n);
  });
});
