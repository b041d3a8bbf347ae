import { exampleAsset } from '../../src/http/docsExamples';
import type { Asset } from '../../src/db/assetsRepo';

// Which asset the rendered getting-started settles and pays in on an instance (src/http/docsExamples.ts).

const asset = (chainId: string, symbol: string, pegCurrency: string | null, transferMethod: Asset['transferMethod']): Asset => ({
  id: `${chainId}/erc20:0x${symbol.padEnd(40, '0')}`,
  chainId,
  symbol,
  name: symbol,
  decimals: 6,
  networkName: 'Net',
  iconUrl: null,
  networkIconUrl: null,
  pegCurrency,
  eip712Name: null,
  eip712Version: null,
  transferMethod,
});

describe('exampleAsset', () => {
  const order = ['eip155:8453', 'eip155:31337'];

  it("the instance's first chain first, then USD-pegged, then EIP-3009, then by symbol", () => {
    const eurc = asset('eip155:31337', 'EURC', 'EUR', 'eip3009');
    const usdt = asset('eip155:31337', 'USDT', 'USD', 'permit2');
    const usdc = asset('eip155:31337', 'USDC', 'USD', 'eip3009');
    expect(exampleAsset([eurc, usdt, usdc], order)).toBe(usdc);
    expect(exampleAsset([eurc, usdt], order)).toBe(usdt);
    expect(exampleAsset([eurc], order)).toBe(eurc);
    const onBase = asset('eip155:8453', 'EURC', 'EUR', 'eip3009');
    expect(exampleAsset([usdc, onBase], order)).toBe(onBase);
    const b = asset('eip155:31337', 'BBB', 'USD', 'eip3009');
    expect(exampleAsset([usdc, b], order)).toBe(b);
  });

  it('none when the instance serves no asset', () => {
    expect(exampleAsset([], order)).toBeNull();
  });
});
