import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  http,
  parseAbi,
  parseGwei,
  type Address,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { devnetAssetId, devnetDeployer, devnetChain, devnetTokenAddress } from '../../src/chain/devnet';
import { DEVNET_CHAIN_ID, DEVNET_CHAINS } from '../../src/chain/devnetChains';
import { devnetMint, startDevnetChain } from '../../src/chain/devnetTokens';
import type { RunningAnvil } from '../../src/chain/anvil';
import { freePort } from '../../scripts/free-port.cjs';
import { TOKEN_ABI } from '../../src/chain/evm';

// The development chain the test run shares (started by globalSetup): fund buyers, read balances and
// receipts, and drive mining and reorgs as anvil allows.

export const DEVNET_USDC = devnetAssetId('USDC');
export const USDC_TOKEN = devnetTokenAddress('USDC');

/** The second development chain's id (the first is DEVNET_CHAIN_ID). */
export const DEVNET2_CHAIN_ID = DEVNET_CHAINS[1].chainId;

/** The RPC URL of a development chain the run shares (the first by default). */
export const rpcUrl = (chainId: number = DEVNET_CHAIN_ID) => {
  const env = DEVNET_CHAINS.find((c) => c.chainId === chainId)?.env;
  const url = env && process.env[`${env}RPC_URL`];
  if (!url) throw new Error(`${env ?? chainId}RPC_URL is not set: the jest globalSetup starts the development chains`);
  return url;
};

/**
 * A development chain of the calling test file's own (anvil with the devnet tokens), for tests that change the
 * chain for everyone: automine off, snapshots and reverts, reorgs, block timestamps. Test files run in
 * parallel, and the others keep the shared chain. Call it at the top level of the file: before the file's
 * tests it points DEVNET_RPC_URL at its chain (jest gives each test file its own copy of process.env, and the
 * services, commands and helpers of the file read it from there).
 */
export function useOwnChain(): void {
  let own: RunningAnvil | null = null;
  let dir = '';
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-own-chain-'));
    own = await startDevnetChain({ dir, port: await freePort() });
    process.env.DEVNET_RPC_URL = own.rpcUrl;
    process.env.DEVNET_DIR = dir;
  });
  afterAll(async () => {
    await own?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
}

export { freePort };

export const chainClient = (chainId: number = DEVNET_CHAIN_ID) =>
  createPublicClient({ chain: devnetChain(rpcUrl(chainId), chainId), transport: http(rpcUrl(chainId)) });
export const anvil = () => createTestClient({ mode: 'anvil', chain: devnetChain(rpcUrl()), transport: http(rpcUrl()) });

let minting: Promise<unknown> = Promise.resolve();
/** Mints devnet tokens to `to` (one mint at a time: they share the deployer's nonce). */
export function fund(to: string, amount: bigint, symbol = 'USDC', chainId: number = DEVNET_CHAIN_ID): Promise<Hex> {
  const next = minting.then(() => devnetMint(rpcUrl(chainId), devnetTokenAddress(symbol), getAddress(to), amount));
  minting = next.catch(() => undefined);
  return next;
}

/** A new buyer key; with `amount`, funded with that many USDC units. */
export async function newBuyer(amount?: bigint) {
  const account = privateKeyToAccount(generatePrivateKey());
  if (amount) await fund(account.address, amount);
  return account;
}

export const newWallet = (): Address => privateKeyToAccount(generatePrivateKey()).address;

export const balanceOf = (holder: string, symbol = 'USDC', chainId: number = DEVNET_CHAIN_ID) =>
  chainClient(chainId).readContract({
    address: devnetTokenAddress(symbol),
    abi: TOKEN_ABI,
    functionName: 'balanceOf',
    args: [getAddress(holder)],
  });

export const receiptOf = (hash: string) => chainClient().getTransactionReceipt({ hash: hash as Hex });

const TOKEN_ADMIN_ABI = parseAbi([
  'function pause()',
  'function unpause()',
  'function blacklist(address account)',
  'function unBlacklist(address account)',
]);

/**
 * Sends one of the token's administrative calls from its pauser and blacklister (the devnet deployer), with a
 * priority fee high enough to be mined ahead of the relayer's transactions in the same block; the hash (with
 * automine off, it waits in the pool for the next block).
 */
export function tokenAdmin(call: 'pause' | 'unpause' | 'blacklist' | 'unBlacklist', account?: Address, symbol = 'USDC'): Promise<Hex> {
  const wallet = createWalletClient({ chain: devnetChain(rpcUrl()), transport: http(rpcUrl()), account: devnetDeployer });
  return wallet.writeContract({
    address: devnetTokenAddress(symbol),
    abi: TOKEN_ADMIN_ABI,
    functionName: call,
    args: account ? [account] : [],
    gas: 100_000n,
    maxFeePerGas: parseGwei('500'),
    maxPriorityFeePerGas: parseGwei('100'),
  } as never);
}
