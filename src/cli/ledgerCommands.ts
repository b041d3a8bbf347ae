import type { Config } from '../config';
import type { EvmChain } from '../chain/evm';
import { need, UsageError, type Command } from './adminArgs';

// Each command loads its modules when it runs, as in src/cli/admin.ts.

// The ledger (docs/ledger.md), read-only:
//   admin ledger balance --account acct_…  -> {"balances":[{asset, available, pending, reserved}]} (as GET /v1/balance)
//   admin ledger check [--chain <caip2>] [--wait <seconds>]
//         -> {"chains":[{chainId, block, holdings, unrecorded}], "differences":[…], "negative":[…]}: what the ledger
//         says each address holds against balanceOf at the block at confirmation depth, once the relayer transactions
//         mined by then are recorded (waits up to --wait seconds, 30 by default; what is still unrecorded is listed),
//         and every owner's bucket of a token at an address below zero; exit 1 on any difference, unrecorded
//         transaction or negative bucket
//   admin report balance-transactions --account acct_… --from <ISO> --to <ISO> --format csv --out <file>
//         -> {"rows","file"}: the account's ledger entries in [from, to), as GET /v1/reports/balance-transactions, as CSV

const DEFAULT_WAIT_S = 30;
const MAX_WAIT_S = 600;

async function chainsOf(config: Config, only?: string): Promise<EvmChain[]> {
  const configuredChain = await import('../chain/chains').then((m) => m.configuredChain);
  const ids = [...config.chains.map((c) => c.caip2), ...(config.devnet?.chains ?? []).map((c) => `eip155:${c.chainId}`)];
  const chosen = only ? ids.filter((id) => id === only) : ids;
  if (only && !chosen.length) throw new Error(`${only} is not a chain of this configuration (CHAINS, or the development chain)`);
  return chosen.flatMap((id) => configuredChain(config, id) ?? []);
}

export const LEDGER_QUERIES: Record<string, Command> = {
  'ledger balance': (v) => {
    const account = need(v, 'account');
    return (db) => import('../usecases/ledger/records').then((m) => m.balances(db, account));
  },
  'ledger check': (v) => {
    const wait = v.wait?.trim() ?? String(DEFAULT_WAIT_S);
    if (!/^\d{1,3}$/.test(wait) || Number(wait) > MAX_WAIT_S) throw new UsageError(`--wait must be whole seconds, 0 to ${MAX_WAIT_S}`);
    return async (db, config) => {
      const checkLedger = await import('../usecases/ledger/check').then((m) => m.checkLedger);
      const report = await checkLedger(db, await chainsOf(config, v.chain?.trim()), { waitMs: Number(wait) * 1000 });
      if (report.differences.length || report.negative.length || report.chains.some((c) => c.unrecorded.length)) process.exitCode = 1;
      return report;
    };
  },
  'report balance-transactions': (v) => {
    const account = need(v, 'account');
    const range = { from: need(v, 'from'), to: need(v, 'to') };
    if (need(v, 'format') !== 'csv') throw new UsageError('--format must be csv');
    const out = need(v, 'out');
    return (db) => import('../usecases/ledger/export').then((m) => m.writeBalanceTransactionsCsv(db, account, range, out));
  },
};
