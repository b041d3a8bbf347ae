import { collectedEntries, move, unbalancedAssets, WORLD } from '../../src/domain/ledger';

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
