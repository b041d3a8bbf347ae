import fs from 'node:fs';
import type { Db } from '../db/knex';
import type { Config } from '../config';
import type { ChainSettings, DevnetSettings } from '../config/chains';
import type { Logger } from '../logger';
import { upsertAsset } from '../db/assetsRepo';
import {
  DEVNET_CAIP2,
  DEVNET_CHAIN_ID,
  devnetAssets,
  devnetInfo,
  devnetInfoFile,
  devnetRelayerKeys,
  devnetSetBalance,
  ensureDevnetTokens,
  startAnvil,
  type RunningAnvil,
} from './devnet';
import { EvmChain } from './evm';

// The chains this instance settles on: the configured ones (CHAINS), or the development chain when none
// is configured outside production. Options are offered only on these; settlements may name any asset.

export class Chains {
  private readonly byId: Map<string, EvmChain>;

  constructor(list: EvmChain[]) {
    this.byId = new Map(list.map((c) => [c.caip2, c]));
  }

  get(caip2: string): EvmChain | undefined {
    return this.byId.get(caip2);
  }

  get all(): EvmChain[] {
    return [...this.byId.values()];
  }
}

const configured = (c: ChainSettings) =>
  new EvmChain(
    c.caip2,
    c.chainId,
    c.rpcUrl,
    c.relayerKeys,
    c.confirmations,
    c.maxFeePerGasWei,
    c.relayerBalanceFloorWei,
    c.retiredRelayerKeys,
  );

const devnet = (d: DevnetSettings, rpcUrl: string, createKeys: boolean) =>
  new EvmChain(
    DEVNET_CAIP2,
    DEVNET_CHAIN_ID,
    rpcUrl,
    d.relayerKeys ?? devnetRelayerKeys(d.dir, createKeys),
    d.confirmations,
    d.maxFeePerGasWei,
    10n ** 18n,
    d.retiredRelayerKeys,
  );

/**
 * One chain with the keys the service holds on it, for a command line (`admin relayer`): nothing is started,
 * deployed or written. The development chain is reached where the service said it runs.
 */
export function configuredChain(config: Config, caip2: string): EvmChain | undefined {
  const c = config.chains.find((x) => x.caip2 === caip2);
  if (c) return configured(c);
  const d = config.devnet;
  if (!d || caip2 !== DEVNET_CAIP2) return undefined;
  const info = devnetInfoFile(d.dir);
  const rpcUrl = d.rpcUrl ?? (fs.existsSync(info) ? (JSON.parse(fs.readFileSync(info, 'utf8')) as { rpcUrl: string }).rpcUrl : null);
  return devnet(d, rpcUrl ?? `http://127.0.0.1:${d.port}`, false);
}

export interface StartedChains {
  chains: Chains;
  /** The development chain's RPC URL when it is in use. */
  devnetRpcUrl: string | null;
  stop(): Promise<void>;
}

/**
 * Connects the configured chains; for the development chain, starts anvil (or attaches to a running one),
 * deploys the tokens if needed, registers them as assets, and gives the relayer keys gas.
 */
export async function startChains(config: Config, db: Db, log: Logger): Promise<StartedChains> {
  if (!config.devnet) {
    if (!config.chains.length) log.warn('no chain is configured (CHAINS): payments can be created but not paid');
    const list = config.chains.map(configured);
    // An unreachable node does not stop the start (payments wait and retry); an empty gas wallet is said at once.
    for (const chain of list)
      for (const relayer of chain.held) {
        const wei = await chain.nativeBalance(relayer).catch(() => null);
        if (wei === null) log.warn({ chainId: chain.caip2 }, "the chain's RPC node does not answer; chain work will retry");
        else if (wei < chain.balanceFloorWei)
          log.warn({ chainId: chain.caip2, relayer, balanceWei: wei.toString() }, 'relayer balance is under its floor: fund it');
      }
    for (const chain of list) logRetired(log, chain);
    return { chains: new Chains(list), devnetRpcUrl: null, stop: async () => {} };
  }
  const d = config.devnet;
  let anvil: RunningAnvil | null = null;
  let rpcUrl = d.rpcUrl;
  if (!rpcUrl) {
    anvil = await startAnvil({ dir: d.dir, port: d.port, blockTimeS: d.blockTimeS, log: (l) => log.debug({ anvil: l.trim() }, 'devnet') });
    rpcUrl = anvil.rpcUrl;
  }
  await ensureDevnetTokens(rpcUrl);
  const chain = devnet(d, rpcUrl, true);
  for (const r of chain.held) if ((await chain.nativeBalance(r)) < 10n ** 20n) await devnetSetBalance(rpcUrl, r);
  for (const a of devnetAssets()) {
    await upsertAsset(db, {
      id: a.asset,
      chainId: DEVNET_CAIP2,
      symbol: a.symbol,
      name: a.name,
      decimals: a.decimals,
      networkName: 'paygate devnet',
      iconUrl: null,
      networkIconUrl: null,
      pegCurrency: a.pegCurrency,
      eip712Name: a.eip712Name,
      eip712Version: a.eip712Version,
    });
  }
  fs.mkdirSync(d.dir, { recursive: true });
  fs.writeFileSync(devnetInfoFile(d.dir), JSON.stringify(devnetInfo(rpcUrl)) + '\n');
  log.info(
    { chainId: DEVNET_CAIP2, rpcUrl, relayers: chain.relayers, reused: anvil ? anvil.child === null : true },
    'development chain ready (anvil, FiatToken v2.2 USDC and EURC)',
  );
  logRetired(log, chain);
  return {
    chains: new Chains([chain]),
    devnetRpcUrl: rpcUrl,
    stop: async () => {
      await anvil?.stop();
    },
  };
}

function logRetired(log: Logger, chain: EvmChain): void {
  const retired = chain.held.filter((a) => chain.isRetired(a));
  if (retired.length)
    log.info({ chainId: chain.caip2, retired }, 'retired relayer keys: held to finish their work and be swept, given no new option');
}
