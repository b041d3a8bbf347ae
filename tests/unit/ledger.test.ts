import { collectedEntries, move, reserveShare, unbalancedAssets, WORLD } from '../../src/domain/ledger';
import { reserveSettings } from '../../src/config/refunds';
import { refundTokens } from '../../src/domain/refund';

const A = 'eip155:31337/erc20:0xb19b36b1456E65E3A6D514D3F715f204BD59f431';
const B = 'eip155:31337/slip44:60';
const C = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('ledger journals', () => {
  it('a collected payment splits into the account’s share and the operator’s fee, summing to zero', () => {
    const e = collectedEntries({ accountId: 'acct_1', asset: A, collector: C, amount: 1000n, fee: 25n }, false);
    expect(e.map((x) => [x.owner, x.bucket, x.amount])).toEqual([
      [WORLD, 'external', -1000n],
      ['acct_1', 'available', 975n],
      ['operator', 'fees', 25n],
    ]);
    expect(unbalancedAssets(e)).toEqual([]);
  });

  it('a refund reserve is part of the account’s share, held at the collector in `reserve`; the rest is available', () => {
    const reserve = reserveShare(1000n - 25n, 2500);
    expect(reserve).toBe(243n); // rounded down: the merchant's part is never short
    const e = collectedEntries({ accountId: 'acct_1', asset: A, collector: C, amount: 1000n, fee: 25n, reserve }, false);
    expect(e.map((x) => [x.owner, x.bucket, x.holder, x.amount])).toEqual([
      [WORLD, 'external', null, -1000n],
      ['acct_1', 'available', C, 732n],
      ['acct_1', 'reserve', C, 243n],
      ['operator', 'fees', C, 25n],
    ]);
    expect(unbalancedAssets(e)).toEqual([]);
    // All of it reserved: no available entry.
    const all = collectedEntries(
      { accountId: 'acct_1', asset: A, collector: C, amount: 1000n, fee: 0n, reserve: reserveShare(1000n, 10_000) },
      false,
    );
    expect(all.map((x) => x.bucket)).toEqual(['external', 'reserve']);
    expect([reserveShare(1000n, 0), reserveShare(0n, 10_000)]).toEqual([0n, 0n]);
  });

  it('the operator’s reserve: off unless set, except in development (all of the share for 5 minutes)', () => {
    expect(reserveSettings({}, 'production')).toEqual({ bps: 0, windowMinutes: 0 });
    expect(reserveSettings({}, 'test')).toEqual({ bps: 0, windowMinutes: 0 });
    expect(reserveSettings({}, 'development')).toEqual({ bps: 10_000, windowMinutes: 5 });
    expect(reserveSettings({ REFUND_RESERVE_BPS: '0' }, 'development')).toEqual({ bps: 0, windowMinutes: 5 });
    expect(reserveSettings({ REFUND_RESERVE_BPS: '500', REFUND_RESERVE_WINDOW_MINUTES: '1440' }, 'production')).toEqual({
      bps: 500,
      windowMinutes: 1440,
    });
    expect(() => reserveSettings({ REFUND_RESERVE_BPS: '10001' }, 'production')).toThrow(/REFUND_RESERVE_BPS must be between 0 and 10000/);
  });

  it('no zero entries: a fee-less payment has no fee entry, and moving nothing is no entry', () => {
    expect(collectedEntries({ accountId: 'acct_1', asset: A, collector: C, amount: 10n, fee: 0n }, true)).toHaveLength(2);
    expect(move(A, 0n, { owner: 'x', bucket: 'available', holder: C }, { owner: 'x', bucket: 'reserved', holder: C })).toEqual([]);
  });

  it('balance is per asset: sums that cancel across assets do not balance', () => {
    const e = [
      { owner: 'x', bucket: 'available' as const, asset: A, holder: C, amount: 5n },
      { owner: 'y', bucket: 'available' as const, asset: B, holder: C, amount: -5n },
    ];
    expect(unbalancedAssets(e)).toEqual([A, B]);
  });
});

describe('refund token amounts', () => {
  const payment = { amountMinor: 300n, tokenAmount: 1_000_000n };
  it('partial refunds in proportion, the last one takes what is left: the whole payment exactly', () => {
    const a = refundTokens(payment, { minor: 0n, tokens: 0n }, 100n)!;
    const b = refundTokens(payment, { minor: 100n, tokens: a }, 100n)!;
    const c = refundTokens(payment, { minor: 200n, tokens: a + b }, 100n)!;
    expect([a, b, c]).toEqual([333_333n, 333_333n, 333_334n]);
    expect(a + b + c).toBe(payment.tokenAmount);
  });
  it('more than is left, or nothing, is refused', () => {
    expect(refundTokens(payment, { minor: 200n, tokens: 666_666n }, 101n)).toBeNull();
    expect(refundTokens(payment, { minor: 0n, tokens: 0n }, 0n)).toBeNull();
  });
});
