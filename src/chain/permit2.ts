import fs from 'node:fs';
import path from 'node:path';
import { hashDomain, type Hex } from 'viem';
import { PERMIT2_ADDRESS } from '../domain/permit2';
import { projectRoot } from '../paths';
import { anvilRpc } from './anvil';

// Uniswap's Permit2 on a development chain, at its canonical address, from the runtime bytecode Uniswap ships
// for tests (contracts/permit2/Permit2.json; scripts/extract-permit2.mjs says where it comes from).
// The bytecode caches the domain separator of a deployment on chain 31337 at another address, and returns
// it whenever the chain id is 31337: every signature made with the standard domain would be refused there.
// Before anvil_setCode that cached separator is replaced with the one for (chain id, canonical address).

interface Permit2Artifact {
  cachedDomainSeparator31337: Hex;
  runtimeBytecode: Hex;
}

const artifact = (): Permit2Artifact =>
  JSON.parse(fs.readFileSync(path.join(projectRoot, 'contracts/permit2/Permit2.json'), 'utf8')) as Permit2Artifact;

/** Permit2's EIP-712 domain separator on `chainId`: what wallets sign against. */
export const permit2DomainSeparator = (chainId: number): Hex =>
  hashDomain({
    domain: { name: 'Permit2', chainId: BigInt(chainId), verifyingContract: PERMIT2_ADDRESS },
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
    },
  });

/** The runtime bytecode with the cached separator replaced by the one for `chainId`. */
export function permit2Code(chainId: number): Hex {
  const { cachedDomainSeparator31337, runtimeBytecode } = artifact();
  const cached = cachedDomainSeparator31337.slice(2).toLowerCase();
  const parts = runtimeBytecode.toLowerCase().split(cached);
  if (parts.length < 2) throw new Error('Permit2 bytecode: the cached domain separator is not in it');
  return parts.join(permit2DomainSeparator(chainId).slice(2)) as Hex;
}

/** Puts Permit2 at its canonical address unless that code is already there. */
export async function ensurePermit2(rpcUrl: string, chainId: number): Promise<void> {
  const code = permit2Code(chainId);
  if (((await anvilRpc(rpcUrl, 'eth_getCode', [PERMIT2_ADDRESS, 'latest'])) as string).toLowerCase() === code) return;
  await anvilRpc(rpcUrl, 'anvil_setCode', [PERMIT2_ADDRESS, code]);
}
