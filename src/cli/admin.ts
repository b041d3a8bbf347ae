import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { connect } from '../db/connect';
import { migrateLatest } from '../db/migrate';
import { createAccount, createApp, createKey, revokeKey, setCollectThreshold } from '../db/accountsRepo';
import { projectRoot } from '../paths';

// Operators' and tests' command line. JSON on stdout, errors as JSON on stderr with exit code 1 (usage: 2).
//   admin accounts create --name "Acme"                     -> {"accountId","apiKey","keyId"}
//   admin keys create --account <id> --type partner|wallet  -> {"keyId","apiKey"}
//   admin keys revoke --key <keyId>                         -> {"keyId","revoked":true}
//   admin apps create --account <id> --name NAME            -> {"appId","clientId"} (gateway App-Id + Client-Id)
//   admin accounts set-threshold --account <id> --minor N   -> {"accountId","collectDataThresholdMinor"}

const USAGE = 'usage: admin accounts create --name NAME | accounts set-threshold --account ID --minor N | keys create --account ID --type partner|wallet | keys revoke --key KEY_ID | apps create --account ID --name NAME';

class UsageError extends Error {}

async function run(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, account: { type: 'string' }, type: { type: 'string' }, key: { type: 'string' }, minor: { type: 'string' } },
  });
  const cmd = positionals.join(' ');
  const need = (v: string | undefined, flag: string) => {
    if (!v || !v.trim()) throw new UsageError(`--${flag} is required`);
    return v.trim();
  };
  const commands: Record<string, () => void> = { 'accounts create': () => need(values.name, 'name'), 'keys create': () => {
    need(values.account, 'account');
    if (values.type !== 'partner' && values.type !== 'wallet') throw new UsageError('--type must be partner or wallet');
  }, 'keys revoke': () => need(values.key, 'key'), 'apps create': () => {
    need(values.account, 'account');
    if (need(values.name, 'name').length > 256) throw new UsageError('--name is at most 256 characters');
  }, 'accounts set-threshold': () => {
    need(values.account, 'account');
    if (!/^[1-9][0-9]{0,29}$/.test(need(values.minor, 'minor'))) throw new UsageError('--minor must be a positive integer (minor units)');
  } };
  if (!commands[cmd]) throw new UsageError(USAGE);
  commands[cmd]();
  if (cmd === 'accounts create' && values.name!.length > 256) throw new UsageError('--name is at most 256 characters');

  const database = await connect(loadConfig(process.env, projectRoot));
  try {
    await migrateLatest(database.db);
    switch (cmd) {
      case 'accounts create':
        return await createAccount(database.db, values.name!.trim());
      case 'keys create': {
        const key = await createKey(database.db, values.account!.trim(), values.type as 'partner' | 'wallet');
        if (!key) throw new Error(`no account ${values.account}`);
        return key;
      }
      case 'apps create': {
        const app = await createApp(database.db, values.account!.trim(), values.name!.trim());
        if (!app) throw new Error(`no account ${values.account}`);
        return app;
      }
      case 'accounts set-threshold': {
        if (!(await setCollectThreshold(database.db, values.account!.trim(), BigInt(values.minor!.trim())))) throw new Error(`no account ${values.account}`);
        return { accountId: values.account!.trim(), collectDataThresholdMinor: values.minor!.trim() };
      }
      default: {
        if (!(await revokeKey(database.db, values.key!.trim()))) throw new Error(`no key ${values.key}`);
        return { keyId: values.key!.trim(), revoked: true };
      }
    }
  } finally {
    await database.stop();
  }
}

run(process.argv.slice(2)).then(
  (out) => process.stdout.write(JSON.stringify(out) + '\n'),
  (e: unknown) => {
    process.stderr.write(JSON.stringify({ error: e instanceof Error ? e.message : String(e) }) + '\n');
    process.exit(e instanceof UsageError ? 2 : 1);
  },
);
