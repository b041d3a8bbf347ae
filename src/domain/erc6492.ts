import { getAddress, isErc6492Signature, parseErc6492Signature, type Address, type Hex } from 'viem';

// ERC-6492: the signature of a smart-contract wallet that may not exist yet. It wraps the wallet's own signature
// (ERC-1271's, once deployed) with the factory call that deploys the wallet at its counterfactual address, and ends
// with the magic suffix 0x6492…6492. Checked before anything moves by the universal validator (the factory call,
// then isValidSignature, in one call that changes nothing; src/chain/evm.ts); before the token or Permit2 can check
// it on chain, the relayer sends the factory call (src/usecases/relayer/paymentSteps.ts), and the transfer carries the inner
// signature.

export interface Counterfactual {
  /** The contract to call to deploy the wallet, and the calldata to call it with. */
  factory: Address;
  factoryData: Hex;
  /** The wallet's own signature, what isValidSignature checks once the wallet exists. */
  signature: Hex;
}

const HEX = /^0x(?:[0-9a-fA-F]{2})+$/;

/** The parts of an ERC-6492 signature; null for any other signature (an EOA's, or a deployed wallet's own). */
export function counterfactualOf(signature: string): Counterfactual | null {
  if (!HEX.test(signature) || !isErc6492Signature(signature as Hex)) return null;
  try {
    const p = parseErc6492Signature(signature as Hex);
    if (!p.address || !p.data || !HEX.test(p.signature)) return null;
    return { factory: getAddress(p.address), factoryData: p.data, signature: p.signature };
  } catch {
    return null;
  }
}
