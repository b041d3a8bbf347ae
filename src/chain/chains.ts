import fs from 'node:fs';
import type { Db } from '../db/knex';
import type { Config } from '../config';
import { chainModes, type ChainSettings, type DevnetSettings } from '../config/chains';
import type { Mode } from '../domain/mode';
import type { Logger } from '../logger';
import { getAddress } from 'viem';
import { listAssets, upsertAsset } from '../db/assetsRepo';
import { devnetAssets, devnetInfo, devnetRelayerKeys } from './devnet';
import { DEVNET_CHAINS, devnetInfoFile, type DevnetInfo } from './devnetChains';
import { devnetSetBalance, startAnvil, type RunningAnvil } from './anvil';
import { ensureDevnetTokens } from './devnetTokens';
import { EvmChain } from './evm';
import { startDepthMining } from './devnetDepth';
import { devnetNativeCoin } from './devnetNative';
import { nativeAsset } from '../domain/asset';

// The chains this instance settles on: the configured ones (CHAINS), and the development chains when none is
// configured outside production or, for test mode, beside configured ones (docs/testmode.md). Options are
// offered only on these, each to payments of the modes it serves; settlements name an asset of one of them.

export class Chains {
  private readonly byId: Map<string, EvmChain>;

  constructor(
    list: EvmChain[],
    private readonly configured: ChainSettings[] = [],
  ) {
    this.byId = new Map(list.map((c) => [c.caip2, c]));
  }

  /** Whether the chain is one of these and takes payments of `mode`. */
  serves(caip2: string, mode: Mode): boolean {
    return this.byId.has(caip2) && chainModes(this.configured, caip2).includes(mode);
  }

  get(caip2: string): EvmChain | undefined {
    return this.byId.get(caip2);
  }

  get all(): EvmChain[] {
    return [...this.byId.values()];
  }
}

function configured(c: ChainSettings): EvmChain {
  const chain = new EvmChain(
    c.caip2,
    c.chainId,
    c.rpcUrl,
    c.relayerKeys,
    c.confirmations,
    c.maxFeePerGasWei,
    c.relayerBalanceFloorWei,
    c.retiredRelayerKeys,
  );
  if (c.native) {
    const feeds = Object.entries(c.native.feeds).map(([cur, f]) => [cur, { ...f, address: getAddress(f.address) }]);
    chain.native = { router: getAddress(c.native.router), feeds: Object.fromEntries(feeds), toleranceBps: c.native.toleranceBps };
  }
  return chain;
}

const devnet = (d: DevnetSettings, chainId: number, rpcUrl: string, createKeys: boolean) =>
  new EvmChain(
    `eip155:${chainId}`,
    chainId,
    rpcUrl,
    d.relayerKeys ?? devnetRelayerKeys(d.dir, createKeys),
    d.confirmations,
    d.maxFeePerGasWei,
    10n ** 18n,
    d.retiredRelayerKeys,
    true,
  );

/**
 * One chain with the keys the service holds on it, for a command line (`admin relayer`): nothing is started,
 * deployed or written. The development chain is reached where the service said it runs.
 */
export function configuredChain(config: Config, caip2: string): EvmChain | undefined {
  const c = config.chains.find((x) => x.caip2 === caip2);
  if (c) return configured(c);
  const d = config.devnet;
  const dc = d?.chains.find((x) => `eip155:${x.chainId}` === caip2);
  if (!d || !dc) return undefined;
  const info = devnetInfoFile(d.dir);
  const written = fs.existsSync(info) ? (JSON.parse(fs.readFileSync(info, 'utf8')) as DevnetInfo).chains : [];
  const rpcUrl = dc.rpcUrl ?? written?.find((x) => x.chainId === caip2)?.rpcUrl ?? `http://127.0.0.1:${dc.port}`;
  return devnet(d, dc.chainId, rpcUrl, false);
}

/** How a development chain this instance runs itself is started: its port, its state in DEVNET_DIR. */
export const anvilOf = (d: DevnetSettings, dc: DevnetSettings['chains'][number]) => {
  const { env, stateFile } = DEVNET_CHAINS.find((c) => c.chainId === dc.chainId)!;
  return { dir: d.dir, port: dc.port, chainId: dc.chainId, stateFile, portSetting: `${env}PORT` };
};

export interface StartedChains {
  chains: Chains;
  /** The development chains' RPC URLs by setting (DEVNET_RPC_URL, DEVNET2_RPC_URL) when they are in use. */
  devnetEnv: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Connects the configured chains; for the development chains, starts anvil for each (or attaches to the running
 * ones), deploys the tokens and Permit2 if needed, registers the tokens as assets, and gives the relayer keys gas.
 */
export async function startChains(config: Config, db: Db, log: Logger): Promise<StartedChains> {
  const list = config.chains.map(configured);
  if (!list.length && !config.devnet)
    log.warn('no chain is configured (CHAINS): no settlement or payment can be created (422 chain_not_served)');
  // An unreachable node does not stop the start (payments wait and retry); an empty gas wallet is said at once.
  for (const chain of list)
    for (const relayer of chain.held) {
      const wei = await chain.nativeBalance(relayer).catch(() => null);
      if (wei === null) log.warn({ chainId: chain.caip2 }, "the chain's RPC node does not answer; chain work will retry");
      else if (wei < chain.balanceFloorWei)
        log.warn({ chainId: chain.caip2, relayer, balanceWei: wei.toString() }, 'relayer balance is under its floor: fund it');
    }
  for (const chain of list) logRetired(log, chain);
  for (const c of config.chains)
    if (c.native)
      await registerNative(
        db,
        c,
        log,
        list.find((x) => x.caip2 === c.caip2)!,
      );
  if (!config.devnet) return { chains: new Chains(list, config.chains), devnetEnv: {}, stop: async () => {} };
  const d = config.devnet;
  const started: RunningAnvil[] = [];
  const miners: { stop(): Promise<void> }[] = [];
  const devnetEnv: Record<string, string> = {};
  const used: { chainId: number; rpcUrl: string }[] = [];
  try {
    for (const dc of d.chains) {
      const { env, networkName } = DEVNET_CHAINS.find((c) => c.chainId === dc.chainId)!;
      let rpcUrl = dc.rpcUrl;
      if (!rpcUrl) {
        const log1 = (l: string) => log.debug({ anvil: l.trim(), chainId: dc.chainId }, 'devnet');
        const anvil = await startAnvil({ ...anvilOf(d, dc), blockTimeS: d.blockTimeS, log: log1 });
        started.push(anvil);
        rpcUrl = anvil.rpcUrl;
        if (!d.blockTimeS && d.depthMiningS && d.confirmations > 1)
          miners.push(startDepthMining(rpcUrl, d.confirmations, d.depthMiningS * 1000, log));
      }
      await ensureDevnetTokens(rpcUrl);
      const chain = devnet(d, dc.chainId, rpcUrl, true);
      for (const r of chain.held) if ((await chain.nativeBalance(r)) < 10n ** 20n) await devnetSetBalance(rpcUrl, r);
      for (const a of devnetAssets(dc.chainId)) {
        const { asset, pegCurrency, ...rest } = a;
        await upsertAsset(db, { ...rest, id: asset, chainId: chain.caip2, networkName, iconUrl: null, networkIconUrl: null, pegCurrency });
      }
      // ETH, through the development router, priced by the development feeds (`admin devnet set-price` moves them).
      chain.native = devnetNativeCoin();
      await upsertAsset(db, { ...nativeAsset(chain.caip2), networkName });
      list.push(chain);
      devnetEnv[`${env}RPC_URL`] = rpcUrl;
      used.push({ chainId: dc.chainId, rpcUrl });
      log.info(
        { chainId: chain.caip2, rpcUrl, relayers: chain.relayers },
        'development chain ready (anvil: ETH, USDC, EURC, USDT, Permit2)',
      );
      logRetired(log, chain);
    }
  } catch (e) {
    for (const m of miners) await m.stop();
    for (const a of started) await a.stop();
    throw e;
  }
  fs.mkdirSync(d.dir, { recursive: true });
  fs.writeFileSync(devnetInfoFile(d.dir), JSON.stringify(devnetInfo(used)) + '\n');
  return {
    chains: new Chains(list, config.chains),
    devnetEnv,
    stop: async () => {
      for (const m of miners) await m.stop();
      for (const a of started) await a.stop();
    },
  };
}

/**
 * A configured chain's own coin (CHAIN_<id>_NATIVE_*) in the asset registry, named as the chain's other assets name
 * their network. A router without code is said at once: its options would only be refused by the wallet's node.
 */
async function registerNative(db: Db, c: ChainSettings, log: Logger, chain: EvmChain): Promise<void> {
  const code = await chain.pub.getCode({ address: chain.native!.router }).catch(() => undefined);
  if (code === '0x' || code === null)
    log.warn({ chainId: c.caip2, router: chain.native!.router }, 'CHAIN_<id>_NATIVE_ROUTER has no code on the chain: deploy the router');
  const networkName = (await listAssets(db)).find((a) => a.chainId === c.caip2)?.networkName ?? c.caip2;
  await upsertAsset(db, { ...nativeAsset(c.caip2), symbol: c.native!.symbol, name: c.native!.symbol, networkName });
}

function logRetired(log: Logger, chain: EvmChain): void {
  const retired = chain.held.filter((a) => chain.isRetired(a));
  if (retired.length)
    log.info({ chainId: chain.caip2, retired }, 'retired relayer keys: held to finish their work and be swept, given no new option');
}
