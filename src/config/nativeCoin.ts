import { ConfigError } from './env';

// A configured chain's own coin (issue 49, docs/native.md): offered where the operator names the router contract it
// deployed (contracts/router/PaygateRouter.json) and at least one Chainlink price feed of the coin in a currency.
//   CHAIN_<id>_NATIVE_ROUTER         0x… the PaygateRouter on the chain
//   CHAIN_<id>_NATIVE_FEEDS          USD:0x…:3600,EUR:0x…:86400  (currency : AggregatorV3 feed : heartbeat seconds)
//   CHAIN_<id>_NATIVE_TOLERANCE_BPS  how far the price may move between a quote and its fetch (default 100: 1%)
//   CHAIN_<id>_NATIVE_SYMBOL         the coin's symbol as options show it (default ETH)

export interface NativeSettings {
  router: `0x${string}`;
  feeds: Record<string, { address: `0x${string}`; heartbeatS: number }>;
  toleranceBps: number;
  symbol: string;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const DEFAULT_TOLERANCE_BPS = 100;

/** The chain's native settings, or null when CHAIN_<id>_NATIVE_ROUTER is not set (no native coin offered there). */
export function nativeSettings(env: NodeJS.ProcessEnv, prefix: string): NativeSettings | null {
  const router = env[`${prefix}NATIVE_ROUTER`]?.trim();
  const feedsRaw = env[`${prefix}NATIVE_FEEDS`]?.trim();
  if (!router) {
    if (feedsRaw) throw new ConfigError(`${prefix}NATIVE_FEEDS is set without ${prefix}NATIVE_ROUTER: the coin is paid through the router`);
    return null;
  }
  if (!ADDRESS.test(router)) throw new ConfigError(`${prefix}NATIVE_ROUTER must be a 0x-prefixed 20-byte address`);
  if (!feedsRaw) throw new ConfigError(`${prefix}NATIVE_FEEDS is required with ${prefix}NATIVE_ROUTER: CURRENCY:0xFEED:HEARTBEAT_S,...`);
  const feeds: NativeSettings['feeds'] = {};
  for (const entry of feedsRaw.split(',').map((e) => e.trim())) {
    const [currency, address, heartbeat, ...rest] = entry.split(':');
    if (rest.length || !/^[A-Z]{3}$/.test(currency ?? '') || !ADDRESS.test(address ?? '') || !/^[1-9]\d{0,8}$/.test(heartbeat ?? ''))
      throw new ConfigError(`${prefix}NATIVE_FEEDS entries are CURRENCY:0xFEED:HEARTBEAT_S (e.g. USD:0x5f4e…8419:3600), got "${entry}"`);
    if (feeds[currency]) throw new ConfigError(`${prefix}NATIVE_FEEDS names ${currency} twice`);
    feeds[currency] = { address: address as `0x${string}`, heartbeatS: Number(heartbeat) };
  }
  const bps = env[`${prefix}NATIVE_TOLERANCE_BPS`]?.trim();
  if (bps && !/^\d{1,4}$/.test(bps)) throw new ConfigError(`${prefix}NATIVE_TOLERANCE_BPS must be basis points, 0 to 9999`);
  const symbol = env[`${prefix}NATIVE_SYMBOL`]?.trim() || 'ETH';
  if (!/^[A-Za-z0-9]{1,11}$/.test(symbol)) throw new ConfigError(`${prefix}NATIVE_SYMBOL must be 1 to 11 letters or digits`);
  return { router: router as `0x${string}`, feeds, toleranceBps: bps ? Number(bps) : DEFAULT_TOLERANCE_BPS, symbol };
}
