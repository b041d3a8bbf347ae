import path from 'node:path';

// What the configuration and the admin command line need to know of the development chains, without loading viem
// (most admin commands never touch a chain, and every process that loads the configuration would pay for it);
// src/chain/devnet.ts has the rest: keys, tokens, deployment.

/** The development chains, first chain first; `env` prefixes their settings (DEVNET_RPC_URL, DEVNET2_PORT, ...). */
export const DEVNET_CHAINS = [
  { chainId: 31337, env: 'DEVNET_', networkName: 'paygate devnet', stateFile: 'anvil-state.json' },
  { chainId: 31338, env: 'DEVNET2_', networkName: 'paygate devnet 2', stateFile: 'anvil-state-31338.json' },
] as const;
export const DEVNET_CHAIN_ID = DEVNET_CHAINS[0].chainId;
export const isDevnetChainId = (id: number) => DEVNET_CHAINS.some((c) => c.chainId === id);

interface DevnetChainInfo {
  chainId: string;
  rpcUrl: string;
  assets: { asset: string; symbol: string; decimals: number; pegCurrency: string }[];
}

/** What `admin devnet info` prints and `devnet fund` uses: the first chain's fields, and every chain's. */
export interface DevnetInfo extends DevnetChainInfo {
  chains: DevnetChainInfo[];
}

export const devnetInfoFile = (dir: string) => path.join(dir, 'devnet.json');
