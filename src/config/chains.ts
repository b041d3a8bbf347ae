import { DEVNET_CHAINS } from '../chain/devnetChains';
import { ConfigError, int } from './env';
import { nativeSettings, type NativeSettings } from './nativeCoin';
import type { Mode } from '../domain/mode';

// The EVM chains this instance settles on (CHAINS, CHAIN_<id>_*), or the development chain (DEVNET_*).

export interface ChainSettings {
  /** Numeric EVM chain id and its CAIP-2 form. */
  chainId: number;
  caip2: string;
  rpcUrl: string;
  /** Blocks (the receipt's included) before a transaction counts: `succeeded` is published only then. */
  confirmations: number;
  /** Relayer keys (0x-prefixed 32-byte hex); each is also a collector address in collector mode. */
  relayerKeys: `0x${string}`[];
  /** Keys still held to finish their work and be swept, never given a new option (docs/chain.md, "Retiring a relayer key"). */
  retiredRelayerKeys: `0x${string}`[];
  /** Fee ceiling: no transaction or replacement offers more per gas (a cancellation: see src/domain/fees.ts). Required. */
  maxFeePerGasWei: bigint;
  /** A relayer whose native balance falls under this is reported (log warning and metric). */
  relayerBalanceFloorWei: bigint;
  /** Whose payments the chain takes (CHAIN_<id>_MODE): live ones (the default) or test ones (docs/testmode.md). */
  mode: Mode;
  /** The chain's own coin, where offered (CHAIN_<id>_NATIVE_*: src/config/nativeCoin.ts). */
  native: NativeSettings | null;
}

export interface DevnetChainSettings {
  chainId: number;
  /** Attach to this development chain already running (tests); otherwise anvil is started on `port`. */
  rpcUrl: string | null;
  port: number;
}

export interface DevnetSettings {
  /** Every development chain (src/chain/devnet.ts), first chain first: DEVNET_* and DEVNET2_* settings. */
  chains: DevnetChainSettings[];
  dir: string;
  /** 0: a block per transaction (automine); otherwise interval mining. */
  blockTimeS: number;
  confirmations: number;
  /**
   * Automine only: seconds between the empty blocks mined after a transaction until it is `confirmations` deep
   * (0: none, a transaction waits for the next ones to bury it). Development: 2, with 3 confirmations, so that a
   * payment is final in seconds and the test helpers' reorg has a window (docs/testmode.md).
   */
  depthMiningS: number;
  /** Relayer keys; by default one generated key kept in `dir`. */
  relayerKeys: `0x${string}`[] | null;
  /** Fee ceiling on the development chain (its ETH is free, but the relayer behaves as on any chain). */
  maxFeePerGasWei: bigint;
  retiredRelayerKeys: `0x${string}`[];
}

/**
 * CHAIN_<id>_CONFIRMATIONS when not set: the depth at which a block of that chain is final, or as good as
 * final, given how the chain reaches finality. docs/chain.md ("Confirmation depths") gives the reasons per chain.
 */
const DEFAULT_CONFIRMATIONS: ReadonlyMap<number, number> = new Map([
  [1, 64], // Ethereum: finalized after two epochs of 32 slots
  [137, 256], // Polygon PoS: probabilistic between checkpoints, with deep reorgs on record
  [10, 60], // OP Mainnet: 2 s sequencer blocks
  [8453, 60], // Base: 2 s sequencer blocks
  [42161, 480], // Arbitrum One: 0.25 s sequencer blocks
]);
/** Any other chain: as deep as Ethereum's finality, whatever its block time. */
const UNKNOWN_CHAIN_CONFIRMATIONS = 64;

const defaultConfirmations = (chainId: number): number => DEFAULT_CONFIRMATIONS.get(chainId) ?? UNKNOWN_CHAIN_CONFIRMATIONS;

const HEX_KEY = /^0x[0-9a-fA-F]{64}$/;

function keys(env: NodeJS.ProcessEnv, name: string): `0x${string}`[] | null {
  const raw = env[name];
  if (!raw) return null;
  const list = raw
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  // Never echo a key back, even a malformed one.
  if (!list.length || list.some((k) => !HEX_KEY.test(k)))
    throw new ConfigError(`${name} must be a comma-separated list of 0x-prefixed 32-byte hex private keys`);
  return list as `0x${string}`[];
}

/** RETIRED_RELAYER_KEYS beside RELAYER_KEYS: validated alike, and a key is in one of them only. */
function retiredKeys(env: NodeJS.ProcessEnv, prefix: string, active: `0x${string}`[] | null): `0x${string}`[] {
  const retired = keys(env, `${prefix}RETIRED_RELAYER_KEYS`) ?? [];
  const activeSet = new Set((active ?? []).map((k) => k.toLowerCase()));
  if (retired.some((k) => activeSet.has(k.toLowerCase())))
    throw new ConfigError(`${prefix}RETIRED_RELAYER_KEYS lists a key of ${prefix}RELAYER_KEYS: a key is either in use or retired`);
  return retired;
}

function wei(env: NodeJS.ProcessEnv, name: string): bigint | null {
  const raw = env[name];
  if (!raw) return null;
  if (!/^\d{1,40}$/.test(raw)) throw new ConfigError(`${name} must be an integer amount in wei, got "${raw}"`);
  return BigInt(raw);
}

/** A fee ceiling per gas: above 0 (a transaction offering nothing is never mined). */
function ceiling(env: NodeJS.ProcessEnv, name: string): bigint | null {
  const v = wei(env, name);
  if (v === 0n) throw new ConfigError(`${name} must be above 0`);
  return v;
}

export function chainSettings(env: NodeJS.ProcessEnv): ChainSettings[] {
  const ids = (env.CHAINS ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  return ids.map((id) => {
    if (!/^[1-9]\d{0,15}$/.test(id)) throw new ConfigError(`CHAINS must list numeric EVM chain ids (e.g. 84532,8453), got "${id}"`);
    const p = `CHAIN_${id}_`;
    const rpcUrl = env[`${p}RPC_URL`];
    if (!rpcUrl || !/^https?:\/\//.test(rpcUrl)) throw new ConfigError(`${p}RPC_URL must be the http(s) URL of an RPC node of chain ${id}`);
    const relayerKeys = keys(env, `${p}RELAYER_KEYS`);
    if (!relayerKeys) throw new ConfigError(`${p}RELAYER_KEYS is required: at least one relayer private key for chain ${id}`);
    // Without a ceiling a transaction stuck while fees climb would follow them without bound: an operator says how far.
    const maxFeePerGasWei = ceiling(env, `${p}MAX_FEE_PER_GAS_WEI`);
    if (!maxFeePerGasWei)
      throw new ConfigError(
        `${p}MAX_FEE_PER_GAS_WEI is required: the most the relayer offers per gas on chain ${id}, in wei (e.g. 2000000000 for 2 gwei)`,
      );
    const mode = env[`${p}MODE`]?.trim() || 'live';
    if (mode !== 'live' && mode !== 'test') throw new ConfigError(`${p}MODE must be live or test, got "${mode}"`);
    return {
      mode,
      chainId: Number(id),
      caip2: `eip155:${id}`,
      rpcUrl,
      relayerKeys,
      retiredRelayerKeys: retiredKeys(env, p, relayerKeys),
      confirmations: int(env, `${p}CONFIRMATIONS`, defaultConfirmations(Number(id)), 1, 1000),
      maxFeePerGasWei,
      relayerBalanceFloorWei: wei(env, `${p}RELAYER_BALANCE_FLOOR_WEI`) ?? 10n ** 16n,
      native: nativeSettings(env, p),
    };
  });
}

export function devnetSettings(
  env: NodeJS.ProcessEnv,
  nodeEnv: string,
  projectRoot: string,
  chains: ChainSettings[],
): DevnetSettings | null {
  const testMode = env.TEST_MODE?.trim() || 'on';
  if (testMode !== 'on' && testMode !== 'off') throw new ConfigError(`TEST_MODE must be on or off, got "${testMode}"`);
  // Beside configured chains the development chains serve test mode (docs/testmode.md), in production too,
  // unless a configured chain is a test chain or test mode is off.
  if (chains.length && (testMode === 'off' || chains.some((c) => c.mode === 'test'))) return null;
  // Alone, a development chain in production would take live signatures for a chain that holds nothing of value.
  if (!chains.length && nodeEnv === 'production') return null;
  const firstPort = int(env, 'DEVNET_PORT', 8545, 1024, 65535);
  const all = DEVNET_CHAINS.map(({ chainId, env: prefix }, i) => {
    const rpcUrl = env[`${prefix}RPC_URL`] || null;
    if (rpcUrl && !/^https?:\/\//.test(rpcUrl)) throw new ConfigError(`${prefix}RPC_URL must be an http(s) URL`);
    return { chainId, rpcUrl, port: i ? int(env, `${prefix}PORT`, Math.min(firstPort + i, 65535), 1024, 65535) : firstPort };
  });
  // Attached to a running first chain (DEVNET_RPC_URL), the instance uses the other chains it is given a URL for:
  // it starts no anvil beside chains someone else runs. A chain id that CHAINS configures is that chain's alone.
  const used = (all[0].rpcUrl ? all.filter((c) => c.rpcUrl) : all).filter((c) => !chains.some((x) => x.chainId === c.chainId));
  if (!used.length) return null;
  const relayerKeys = keys(env, 'DEVNET_RELAYER_KEYS');
  // `make start` (no NODE_ENV): final at a depth that leaves the test helpers a window; tests and production keep 1.
  const development = nodeEnv === 'development';
  return {
    chains: used,
    dir: env.DEVNET_DIR || `${projectRoot}/.data/devnet`,
    blockTimeS: int(env, 'DEVNET_BLOCK_TIME_S', 0, 0, 60),
    confirmations: int(env, 'DEVNET_CONFIRMATIONS', development ? 3 : 1, 1, 100),
    depthMiningS: int(env, 'DEVNET_DEPTH_MINING_S', development ? 2 : 0, 0, 60),
    relayerKeys,
    retiredRelayerKeys: retiredKeys(env, 'DEVNET_', relayerKeys),
    maxFeePerGasWei: ceiling(env, 'DEVNET_MAX_FEE_PER_GAS_WEI') ?? 100n * 10n ** 9n,
  };
}

/** Whose ERC-1271 signatures confirm accepts: any contract wallet's, none, or those of the allow-list (lowercase addresses). */
/**
 * The modes whose payments a chain of this instance takes: a configured chain its CHAIN_<id>_MODE; a development
 * chain test mode only beside configured chains, both modes without them (development, as before test mode).
 */
export function chainModes(chains: ChainSettings[], caip2: string): Mode[] {
  const c = chains.find((x) => x.caip2 === caip2);
  if (c) return [c.mode];
  return chains.length ? ['test'] : ['live', 'test'];
}

export interface ContractWalletSettings {
  mode: 'on' | 'off' | 'allowlist';
  allowlist: string[];
}

const WALLET_MODES = ['on', 'off', 'allowlist'] as const;

export function contractWalletSettings(env: NodeJS.ProcessEnv): ContractWalletSettings {
  const mode = env.CONTRACT_WALLETS?.trim() || 'on';
  if (!(WALLET_MODES as readonly string[]).includes(mode))
    throw new ConfigError(`CONTRACT_WALLETS must be one of ${WALLET_MODES.join(', ')}; got ${JSON.stringify(mode)}`);
  const allowlist = (env.CONTRACT_WALLETS_ALLOWLIST ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  if (allowlist.some((a) => !/^0x[0-9a-fA-F]{40}$/.test(a)))
    throw new ConfigError('CONTRACT_WALLETS_ALLOWLIST must be a comma-separated list of 0x-prefixed 20-byte addresses');
  if (mode === 'allowlist' && !allowlist.length)
    throw new ConfigError(
      'CONTRACT_WALLETS=allowlist needs CONTRACT_WALLETS_ALLOWLIST: the contract wallets whose signatures are accepted',
    );
  if (mode !== 'allowlist' && allowlist.length)
    throw new ConfigError(`CONTRACT_WALLETS_ALLOWLIST is set but CONTRACT_WALLETS is ${mode}: set CONTRACT_WALLETS=allowlist to use it`);
  return { mode: mode as ContractWalletSettings['mode'], allowlist: allowlist.map((a) => a.toLowerCase()) };
}
