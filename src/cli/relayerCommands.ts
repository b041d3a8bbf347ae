import type { Config } from '../config';
import { need, UsageError, type Command, type Values } from './adminArgs';

// Retiring a relayer key (docs/chain.md, "Retiring a relayer key"), with the keys of the same environment variables
// as the service (CHAIN_<id>_RELAYER_KEYS and _RETIRED_RELAYER_KEYS, or DEVNET_*):
//   admin relayer status --chain <caip2> --address 0x…  -> the key's open transactions, processing payments,
//         unsettled collected payments (owed per asset), balances (native and per registered asset) and what is sweepable
//   admin relayer sweep --chain <caip2> --address 0x… --to 0x… [--asset <caip19>]  -> {"transactions":[{asset,amount,hash,…}]}:
//         what a retired key holds beyond what it owes, sent to --to; refused while the key has open work

function chainOf(v: Values): string {
  const chain = need(v, 'chain');
  if (!/^eip155:[1-9][0-9]{0,15}$/.test(chain)) throw new UsageError('--chain must be an EVM CAIP-2 chain id (eip155:<chain id>)');
  return chain;
}

async function addressOf(v: Values, flag: 'address' | 'to'): Promise<string> {
  const a = need(v, flag);
  if (!(await import('viem').then((m) => m.isAddress(a, { strict: false }))))
    throw new UsageError(`--${flag} must be a 0x-prefixed 20-byte hex address`);
  return a;
}

const chainIn = async (config: Config, caip2: string) => {
  const chain = await import('../chain/chains').then((m) => m.configuredChain(config, caip2));
  if (!chain) throw new Error(`${caip2} is not a chain of this configuration (CHAINS, or the development chain)`);
  return chain;
};

/** Read-only (admin.ts runs them in a READ ONLY transaction, without migrating). */
export const RELAYER_QUERIES: Record<string, Command> = {
  'relayer status': async (v) => {
    const caip2 = chainOf(v);
    const address = await addressOf(v, 'address');
    return async (db, config) => {
      const chain = await chainIn(config, caip2);
      return import('../usecases/relayer/retirement').then((m) => m.relayerStatus(db, chain, address));
    };
  },
};

export const RELAYER_COMMANDS: Record<string, Command> = {
  'relayer sweep': async (v) => {
    const caip2 = chainOf(v);
    const address = await addressOf(v, 'address');
    const to = await addressOf(v, 'to');
    let asset: string | undefined;
    if (v.asset !== undefined) {
      const parseAssetId = await import('../domain/caip').then((m) => m.parseAssetId);
      try {
        asset = parseAssetId(v.asset.trim()).id;
      } catch (e) {
        throw new UsageError(`--asset ${(e as Error).message}`);
      }
      if (!asset.startsWith(`${caip2}/`)) throw new UsageError(`--asset must be an asset of ${caip2}`);
    }
    return async (db, config) => {
      const [chain, logger] = await Promise.all([
        chainIn(config, caip2),
        import('../logger').then((m) => m.createLogger('warn', 'stderr')),
      ]);
      return import('../usecases/relayer/retirement').then((m) => m.sweepRetired(db, logger, chain, address, to, asset));
    };
  },
};
