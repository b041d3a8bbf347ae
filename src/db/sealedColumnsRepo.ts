import { SEALED_BODY } from './idempotencyRepo';
import { Db, knexOf } from './knex';
import type { SealedAt } from '../domain/sealed';

// Every column that holds sealed values (src/domain/sealed.ts), for `admin keys rotate-data`, and the place
// each value is sealed for (table, column, primary key). A new sealed column must be listed here, or a key
// rotation would leave its values behind the old key.

export interface SealedColumn {
  table: string;
  column: string;
  /** The primary key, walked in order (keyset pagination). */
  key: string[];
  /** `text`: SEALED_BODY + base64 of the sealed bytes, in a column that also holds clear text (not sealed). */
  form: 'bytea' | 'text';
}

const sealedColumn = (table: string, column: string, key = ['id'], form: SealedColumn['form'] = 'bytea'): SealedColumn => ({
  table,
  column,
  key,
  form,
});

export const PAYMENT_DATA = sealedColumn('payments', 'collected_data');
export const OPTION_DATA = sealedColumn('payment_options', 'collected_data');
export const WEBHOOK_SECRET = sealedColumn('webhook_endpoints', 'secret');
export const WEBHOOK_PREVIOUS_SECRET = sealedColumn('webhook_endpoints', 'previous_secret');
export const IDEMPOTENT_RESPONSE = sealedColumn('idempotency_keys', 'response_body', ['scope', 'key'], 'text');
export const DEPOSIT_KEY = sealedColumn('x402_deposit_keys', 'private_key', ['scope']);
export const DASHBOARD_INVITE_TOTP = sealedColumn('dashboard_invites', 'totp_secret');
export const DASHBOARD_USER_TOTP = sealedColumn('dashboard_users', 'totp_secret');

export const SEALED_COLUMNS: SealedColumn[] = [
  PAYMENT_DATA,
  OPTION_DATA,
  WEBHOOK_SECRET,
  WEBHOOK_PREVIOUS_SECRET,
  IDEMPOTENT_RESPONSE,
  DEPOSIT_KEY,
  DASHBOARD_INVITE_TOTP,
  DASHBOARD_USER_TOTP,
];

/** The place a value of column `c` in the row with primary key `row` is sealed for. */
export function sealedAt(c: SealedColumn, ...row: string[]): SealedAt {
  if (row.length !== c.key.length) throw new Error(`${c.table}.${c.column}: a row is named by ${c.key.join(', ')}`);
  return { table: c.table, column: c.column, row };
}

export interface SealedRow {
  key: string[];
  /** The stored value, as stored (bytes, or the text form). */
  stored: Buffer | string;
  sealed: Buffer;
}

const ident = (s: string) => `"${s}"`;

/**
 * The next rows after `after` (a primary key, or null to start) whose value is sealed but does not begin
 * with `header` (the newest key's): values already sealed by that key are never read, so a second run
 * finds nothing to do.
 */
export async function rowsNotSealedWith(
  db: Db,
  c: SealedColumn,
  header: Buffer,
  after: string[] | null,
  limit: number,
): Promise<SealedRow[]> {
  const knex = knexOf(db);
  const keyList = c.key.map(ident).join(', ');
  const col = ident(c.column);
  const bytes = c.form === 'bytea' ? col : `decode(substring(${col} from ${SEALED_BODY.length + 1}), 'base64')`;
  const sealedOnly = c.form === 'text' ? `AND starts_with(${col}, '${SEALED_BODY}')` : '';
  const { rows } = await knex.raw(
    `SELECT ${keyList}, ${col} AS stored FROM ${ident(c.table)}
     WHERE ${col} IS NOT NULL ${sealedOnly}
       AND substring(${bytes} from 1 for ?) <> ?
       ${after ? `AND (${keyList}) > (${c.key.map(() => '?').join(', ')})` : ''}
     ORDER BY ${keyList} LIMIT ?`,
    [header.length, header, ...(after ?? []), limit],
  );
  return rows.map((r: Record<string, unknown>) => {
    const stored = r.stored as Buffer | string;
    return {
      key: c.key.map((k) => String(r[k])),
      stored,
      sealed: typeof stored === 'string' ? Buffer.from(stored.slice(SEALED_BODY.length), 'base64') : stored,
    };
  });
}

/** Replaces a value only if it is still the one read: a change made meanwhile (a secret rotated) wins. */
export async function replaceSealed(db: Db, c: SealedColumn, row: SealedRow, resealed: Buffer): Promise<boolean> {
  const knex = knexOf(db);
  const value = c.form === 'text' ? SEALED_BODY + resealed.toString('base64') : resealed;
  const where = Object.fromEntries(c.key.map((k, i) => [k, row.key[i]]));
  const n = await knex(c.table)
    .where(where)
    .andWhere(c.column, row.stored)
    .update({ [c.column]: value });
  return n > 0;
}
