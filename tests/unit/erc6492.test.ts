import { concat, serializeErc6492Signature, type Hex } from 'viem';
import { counterfactualOf } from '../../src/domain/erc6492';

// ERC-6492 signatures taken apart: the factory call that deploys the wallet, and the wallet's own signature. Anything
// else (an EOA's signature, a deployed wallet's, malformed text) is not one.

const FACTORY = '0x4e59b44847b379578588920cA78FbF26c0B4956C';
const INNER: Hex = `0x${'ab'.repeat(65)}`;
const DATA: Hex = `0x${'00'.repeat(31)}01${'60'.repeat(40)}`;

describe('counterfactualOf', () => {
  it('gives the factory, its calldata and the inner signature of a wrapped signature', () => {
    const wrapped = serializeErc6492Signature({ address: FACTORY, data: DATA, signature: INNER });
    expect(wrapped.endsWith('6492'.repeat(16))).toBe(true);
    expect(counterfactualOf(wrapped)).toEqual({ factory: FACTORY, factoryData: DATA, signature: INNER });
  });

  it('is null for anything else', () => {
    const magicOnly = concat([INNER, `0x${'6492'.repeat(16)}`]); // the suffix without a decodable wrapper
    for (const s of [INNER, '0x', 'not hex', `0x${'6492'.repeat(16)}`, magicOnly, `${INNER}0`]) expect(counterfactualOf(s)).toBeNull();
  });
});
