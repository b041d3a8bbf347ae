import fs from 'node:fs';
import { loadConfig } from '../config';
import { devnetInfoFile, type DevnetInfo } from '../chain/devnetChains';
import { projectRoot } from '../paths';
import { need, UsageError, type Values } from './adminArgs';

// The admin commands on the development chains (src/cli/admin.ts lists them): no database involved. They act on
// the chains this folder's service started (devnet.json beside their state: `make start`, or a test service).
//   admin devnet info
//   admin devnet fund --address 0x… --asset <caip19> --amount N
//   admin devnet set-price --currency USD --price 3000.5 [--chain eip155:31337]

function runningDevnet(): DevnetInfo {
  const config = loadConfig(process.env, projectRoot);
  if (!config.devnet) throw new Error('no development chain: chains are configured (CHAINS) or NODE_ENV is production');
  const file = devnetInfoFile(config.devnet.dir);
  if (!fs.existsSync(file)) throw new Error('the development chain has not been started here: run make start first');
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** A devnet.json written before the second chain has only the first chain's fields. */
const chainsOf = (info: DevnetInfo) => info.chains ?? [info];

/** "3000.5" with 8 decimals -> 300050000000n, exactly (no float): more than 0, at most `decimals` decimals. */
function feedAnswer(price: string, decimals: number): bigint {
  const m = /^([0-9]{1,30})(?:\.([0-9]+))?$/.exec(price);
  if (!m) throw new UsageError(`--price must be a decimal number (the currency's price of 1 ETH, as 3000.5), not ${JSON.stringify(price)}`);
  const fraction = m[2] ?? '';
  if (fraction.length > decimals) throw new UsageError(`--price has at most ${decimals} decimals (the feed's)`);
  const answer = BigInt(m[1]) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  if (answer === 0n) throw new UsageError('--price must be more than 0');
  return answer;
}

export const DEVNET_COMMANDS: Record<string, (v: Values) => Promise<() => Promise<unknown>>> = {
  'devnet info': async () => async () => runningDevnet(),
  'devnet fund': async (v) => {
    const address = need(v, 'address');
    const [getAddress, isAddress] = await import('viem').then((m) => [m.getAddress, m.isAddress] as const);
    if (!isAddress(address, { strict: false })) throw new UsageError('--address must be a 0x-prefixed 20-byte hex address');
    const asset = need(v, 'asset');
    const amount = need(v, 'amount');
    if (!/^[1-9][0-9]{0,40}$/.test(amount))
      throw new UsageError('--amount must be a positive integer (smallest units, wei for the native coin)');
    return async () => {
      const chains = chainsOf(runningDevnet());
      const native = (c: { chainId: string }) => `${c.chainId}/slip44:60`;
      const chain = chains.find((c) => native(c) === asset || c.assets.some((a) => a.asset === asset));
      if (!chain)
        throw new UsageError(`--asset must be one of ${chains.flatMap((c) => [...c.assets.map((a) => a.asset), native(c)]).join(', ')}`);
      const to = getAddress(address);
      const [devnetMint, devnetSendNative] = await import('../chain/devnetTokens').then((m) => [m.devnetMint, m.devnetSendNative] as const);
      if (native(chain) === asset) return { txHash: await devnetSendNative(chain.rpcUrl, to, BigInt(amount)) };
      return {
        txHash: await devnetMint(
          chain.rpcUrl,
          getAddress(await import('../domain/caip').then((m) => m.parseAssetId(asset).assetReference)),
          to,
          BigInt(amount),
        ),
      };
    };
  },
  'devnet set-price': async (v) => {
    const currency = need(v, 'currency').toUpperCase();
    const { DEVNET_FEEDS } = await import('../chain/priceFeed');
    const feed = DEVNET_FEEDS.find((f) => f.currency === currency);
    if (!feed) throw new UsageError(`--currency must be one of ${DEVNET_FEEDS.map((f) => f.currency).join(', ')}`);
    const answer = feedAnswer(need(v, 'price'), feed.decimals);
    const only = v.chain?.trim();
    return async () => {
      const all = chainsOf(runningDevnet());
      const chains = only ? all.filter((c) => c.chainId === only) : all;
      if (!chains.length) throw new UsageError(`--chain must be one of ${all.map((c) => c.chainId).join(', ')}`);
      const { devnetSetPrice } = await import('../chain/devnetNative');
      const out: { chainId: string; txHash: string }[] = [];
      for (const c of chains) out.push({ chainId: c.chainId, txHash: await devnetSetPrice(c.rpcUrl, currency, answer) });
      return { currency, answer: answer.toString(), chains: out };
    };
  },
};
