import fs from 'node:fs';
import path from 'node:path';
import { createPublicClient, createWalletClient, defineChain, getContractAddress, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount, generatePrivateKey, type PrivateKeyAccount } from 'viem/accounts';
import type { TransferMethod } from '../domain/asset';
import { PERMIT2_ADDRESS } from '../domain/permit2';
import { DEVNET_CHAIN_ID, DEVNET_CHAINS, type DevnetInfo } from './devnetChains';

// The development chains: two anvil chains (src/chain/anvil.ts), each with its own chain id (31337, anvil's, and
// 31338; no production chain's, so nothing of them can be replayed on one), its own RPC port and its own tokens:
// Circle's FiatToken v2.2 from the npm artifacts as a USD-pegged USDC and a EUR-pegged EURC (paid with EIP-3009),
// a USDT with Tether's behaviour (contracts/tether/, paid through Permit2), and Uniswap's Permit2 at its canonical
// address (src/chain/permit2.ts). Without chain settings the service runs on them, so every payment moves real
// tokens on a real EVM, and multi-chain options are exercised by every user and test.
//
// Deployment is deterministic: anvil's well-known development mnemonic funds the deployers, and contract
// addresses follow from the deployers' nonces, so the token addresses are known before the chains run (the
// same on both chains; tests and the asset registry use them) and survive restarts with the persisted state.

/**
 * Keys of anvil's public development mnemonic ("test test … junk", m/44'/60'/0'/0/<index>), as anvil lists them at
 * start: known to everyone, they hold value only on the devnet. Written out rather than derived, because deriving
 * (PBKDF2 of the mnemonic) costs every process that loads this module; tests/unit/devnetKeys.test.ts derives them.
 */
export const DEVNET_MNEMONIC_KEYS = {
  0: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  7: '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  8: '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  9: '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
} as const satisfies Record<number, Hex>;
/** Deploys and administers the tokens (owner, master minter, minter, pauser, blacklister; USDT's owner). */
// bench/chain.mjs funds its accounts from it (through dist/, which the export check does not see).
// ts-unused-exports:disable-next-line
export const devnetDeployer = privateKeyToAccount(DEVNET_MNEMONIC_KEYS[0]);
/** The FiatTokens' proxy admin (a proxy's admin cannot call the implementation, so it is a key of its own). */
export const proxyAdmin = privateKeyToAccount(DEVNET_MNEMONIC_KEYS[9]);
/** Creates USDT (its first transaction, so its address is fixed), then hands the token to the deployer. */
export const tetherCreator = privateKeyToAccount(DEVNET_MNEMONIC_KEYS[8]);
/**
 * Deploys the contracts of payments in the native coin (src/chain/devnetNative.ts) and owns the price feeds:
 * src/chain/nativeRouter.ts and src/chain/priceFeed.ts export it with the addresses below.
 */
export const nativeDeployer = privateKeyToAccount(DEVNET_MNEMONIC_KEYS[7]);
/** nativeDeployer's nonces: the router's, then the ETH price feed's of each currency (deployed in this order). */
export const NATIVE_NONCES = { router: 0n, feeds: { USD: 1n, EUR: 2n } as Readonly<Record<string, bigint>> } as const;
export const nativeContractAddress = (nonce: bigint): Address => getContractAddress({ from: nativeDeployer.address, nonce });

export interface DevnetToken {
  symbol: string;
  name: string;
  currency: string;
  decimals: number;
  /** FiatToken v2.2 (EIP-3009, EIP-712 domain `eip712Name`, version "2") or the Tether-like USDT (Permit2). */
  kind: 'fiat' | 'tether';
  eip712Name: string | null;
}

const DEVNET_TOKENS: DevnetToken[] = [
  { symbol: 'USDC', name: 'USD Coin', currency: 'USD', decimals: 6, kind: 'fiat', eip712Name: 'USD Coin' },
  { symbol: 'EURC', name: 'Euro Coin', currency: 'EUR', decimals: 6, kind: 'fiat', eip712Name: 'EURC' },
  { symbol: 'USDT', name: 'Tether USD', currency: 'USD', decimals: 6, kind: 'tether', eip712Name: null },
];
export const FIAT_TOKENS = DEVNET_TOKENS.filter((t) => t.kind === 'fiat');

// FiatToken deployment order from the proxy admin (nonce 0: library; then per token one implementation and one proxy).
export const LIBRARY_NONCE = 0n;
export const implNonce = (i: number) => BigInt(1 + 2 * i);
const proxyNonce = (i: number) => BigInt(2 + 2 * i);

export const devnetTokenAddress = (symbol: string): Address => {
  if (symbol === 'USDT') return getContractAddress({ from: tetherCreator.address, nonce: 0n });
  const i = FIAT_TOKENS.findIndex((t) => t.symbol === symbol);
  if (i < 0) throw new Error(`no devnet token ${symbol}`);
  return getContractAddress({ from: proxyAdmin.address, nonce: proxyNonce(i) });
};

/**
 * What the development chains' deployment holds, the same on each: the keys that deployed and administer the tokens,
 * FiatToken's library, implementations and proxies, USDT and Permit2; the native coin's router and price feeds and
 * their deployer.
 */
export const devnetOwnAddresses = (): Address[] => [
  devnetDeployer.address,
  proxyAdmin.address,
  tetherCreator.address,
  nativeDeployer.address,
  ...[NATIVE_NONCES.router, ...Object.values(NATIVE_NONCES.feeds)].map(nativeContractAddress),
  ...[LIBRARY_NONCE, ...FIAT_TOKENS.flatMap((_, i) => [implNonce(i), proxyNonce(i)])].map((nonce) =>
    getContractAddress({ from: proxyAdmin.address, nonce }),
  ),
  devnetTokenAddress('USDT'),
  PERMIT2_ADDRESS,
];

export const devnetAssetId = (symbol: string, chainId: number = DEVNET_CHAIN_ID) => `eip155:${chainId}/erc20:${devnetTokenAddress(symbol)}`;

export interface DevnetAsset {
  asset: string;
  symbol: string;
  name: string;
  decimals: number;
  pegCurrency: string;
  transferMethod: TransferMethod;
  eip712Name: string | null;
  eip712Version: string | null;
}

export const devnetAssets = (chainId: number = DEVNET_CHAIN_ID): DevnetAsset[] =>
  DEVNET_TOKENS.map((t) => ({
    asset: devnetAssetId(t.symbol, chainId),
    symbol: t.symbol,
    name: t.name,
    decimals: t.decimals,
    pegCurrency: t.currency,
    transferMethod: t.kind === 'fiat' ? 'eip3009' : 'permit2',
    eip712Name: t.eip712Name,
    eip712Version: t.eip712Name ? '2' : null,
  }));

export const devnetChain = (rpcUrl: string, chainId: number = DEVNET_CHAIN_ID) =>
  defineChain({
    id: chainId,
    name: DEVNET_CHAINS.find((c) => c.chainId === chainId)?.networkName ?? 'paygate devnet',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });

/** A public client of the development chain at `rpcUrl`, wallets of its keys, and `wait`: a receipt, or a throw if reverted. */
export const devnetClients = async (rpcUrl: string) => {
  const pub = createPublicClient({ transport: http(rpcUrl) });
  const chain = devnetChain(rpcUrl, await pub.getChainId());
  const wait = (hash: Hex) =>
    pub.waitForTransactionReceipt({ hash, pollingInterval: 50 }).then((r) => {
      if (r.status !== 'success') throw new Error(`devnet transaction ${hash} reverted`);
      return r;
    });
  const wallet = (account: PrivateKeyAccount) => createWalletClient({ chain, transport: http(rpcUrl), account });
  return { pub, wait, wallet, chainId: chain.id };
};

type DevnetClients = Awaited<ReturnType<typeof devnetClients>>;
export type DevnetWallet = ReturnType<DevnetClients['wallet']>;

export const hasCode = async (pub: DevnetClients['pub'], address: Address) => ((await pub.getCode({ address })) ?? '0x') !== '0x';

/**
 * Sends one transaction of `account` (a deployer's) and waits for it to be mined. Another process sending at the
 * same moment (parallel test files, an operator's admin command) can take the account's nonce between our read of
 * it and our send: the node refuses ours, nothing was sent, send again.
 */
export async function fromDevnetAccount(rpcUrl: string, account: PrivateKeyAccount, send: (w: DevnetWallet) => Promise<Hex>): Promise<Hex> {
  const { wait, wallet } = await devnetClients(rpcUrl);
  const w = wallet(account);
  for (let attempt = 1; ; attempt++) {
    try {
      const hash = await send(w);
      await wait(hash);
      return hash;
    } catch (e) {
      if (
        attempt >= 8 ||
        !/nonce too low|lower than the current nonce|already known|replacement transaction underpriced/i.test(String((e as Error).message))
      )
        throw e;
    }
  }
}

/** `used`: the development chains this instance runs on, first chain first. */
export function devnetInfo(used: { chainId: number; rpcUrl: string }[]): DevnetInfo {
  const chains = used.map(({ chainId, rpcUrl }) => ({
    chainId: `eip155:${chainId}`,
    rpcUrl,
    assets: devnetAssets(chainId).map(({ asset, symbol, decimals, pegCurrency }) => ({ asset, symbol, decimals, pegCurrency })),
  }));
  return { ...chains[0], chains };
}

/**
 * The relayer keys of the development chains (the same keys on each), generated once and kept in their folder
 * (the collector holds received funds, so the key must outlive restarts like the chain state does).
 * `create: false` (a command line that only reads): none when the service never generated them.
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
