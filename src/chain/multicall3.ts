import fs from 'node:fs';
import path from 'node:path';
import { parseTransaction, type Hex } from 'viem';
import { MULTICALL3_ADDRESS } from '../domain/multicall3';
import { projectRoot } from '../paths';
import { anvilRpc } from './anvil';

// Multicall3 on a development chain, at its canonical address: the code its pre-signed deployment transaction
// (contracts/multicall3/Multicall3.json, from github.com/mds1/multicall's README; tests/unit/devnetArtifacts.test.ts
// holds it to its deployer and address) deploys, run as a call and set with anvil_setCode, so no block is mined.

interface Multicall3Artifact {
  rawTransaction: Hex;
}

const artifact = (): Multicall3Artifact =>
  JSON.parse(fs.readFileSync(path.join(projectRoot, 'contracts/multicall3/Multicall3.json'), 'utf8')) as Multicall3Artifact;

/** Puts Multicall3 at its canonical address unless code is already there. */
export async function ensureMulticall3(rpcUrl: string): Promise<void> {
  const code = (await anvilRpc(rpcUrl, 'eth_getCode', [MULTICALL3_ADDRESS, 'latest'])) as string;
  if (code !== '0x' && code !== '') return;
  const init = parseTransaction(artifact().rawTransaction).data!;
  const runtime = (await anvilRpc(rpcUrl, 'eth_call', [{ data: init }, 'latest'])) as Hex;
  await anvilRpc(rpcUrl, 'anvil_setCode', [MULTICALL3_ADDRESS, runtime]);
}
