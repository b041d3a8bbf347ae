import type { Db } from '../db/knex';
import type { Config } from '../config';
import type { Mode } from '../domain/mode';

// The admin command line's flags and what every command shares (src/cli/admin.ts runs them).

export class UsageError extends Error {}

export const OPTIONS = {
  name: { type: 'string' },
  account: { type: 'string' },
  type: { type: 'string' },
  key: { type: 'string' },
  asset: { type: 'string' },
  symbol: { type: 'string' },
  decimals: { type: 'string' },
  'network-name': { type: 'string' },
  peg: { type: 'string' },
  'icon-url': { type: 'string' },
  'network-icon-url': { type: 'string' },
  'eip712-name': { type: 'string' },
  'eip712-version': { type: 'string' },
  'transfer-method': { type: 'string' },
  minor: { type: 'string' },
  'base-minor': { type: 'string' },
  percent: { type: 'string' },
  mode: { type: 'string' },
  'every-minutes': { type: 'string' },
  bps: { type: 'string' },
  'window-minutes': { type: 'string' },
  payment: { type: 'string' },
  reason: { type: 'string' },
  address: { type: 'string' },
  amount: { type: 'string' },
  app: { type: 'string' },
  'batch-size': { type: 'string' },
  chain: { type: 'string' },
  to: { type: 'string' },
  from: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  wait: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  currency: { type: 'string' },
  price: { type: 'string' },
} as const;

export type Values = Partial<Record<keyof typeof OPTIONS, string>>;

export const need = (v: Values, flag: keyof typeof OPTIONS): string => {
  const x = v[flag]?.trim();
  if (!x) throw new UsageError(`--${flag} is required`);
  return x;
};

/** A credential's `--mode` (docs/testmode.md): live unless given. */
export function credentialMode(v: Values): Mode {
  const mode = v.mode?.trim() ?? 'live';
  if (mode !== 'live' && mode !== 'test') throw new UsageError('--mode must be live or test');
  return mode;
}

/** Checks its arguments first (no database needed for a usage error), then runs. */
type Run = (db: Db, config: Config) => Promise<unknown>;
export type Command = (v: Values) => Run | Promise<Run>;
