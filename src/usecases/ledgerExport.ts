import fs from 'node:fs';
import type { Db } from '../db/knex';
import type { BalanceTransaction } from '../db/ledger';
import { balanceTransactions } from './ledger';

// Reconciliation exports of an account's ledger entries: the row as GET /v1/reports/balance-transactions shows it,
// and the same rows as CSV (`admin report balance-transactions --format csv`), written a page at a time so that
// memory stays flat however many rows there are.

export const exportRow = (t: BalanceTransaction) => ({
  id: `btx_${t.id}`,
  type: t.kind,
  bucket: t.bucket as 'available' | 'pending' | 'reserved',
  asset: t.asset,
  chainId: t.chainId,
  amount: t.amount.toString(),
  fee: t.fee.toString(),
  paymentId: t.paymentId,
  refundId: t.refundId,
  merchantId: t.merchantId,
  referenceId: t.referenceId,
  txHash: t.txHash,
  blockNumber: t.blockNumber === null ? null : t.blockNumber.toString(),
  createdAt: t.createdAt.toISOString(),
});

type ExportRow = ReturnType<typeof exportRow>;
const COLUMNS: (keyof ExportRow)[] = [
  'id',
  'type',
  'bucket',
  'asset',
  'chainId',
  'amount',
  'fee',
  'paymentId',
  'refundId',
  'merchantId',
  'referenceId',
  'txHash',
  'blockNumber',
  'createdAt',
];

/** One CSV field (RFC 4180); text a spreadsheet would run as a formula is prefixed with a quote. */
function csvField(v: string | null, text: boolean): string {
  if (v === null) return '';
  const safe = text && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const PAGE = 1000;

/** Writes the account's balance transactions in [from, to) as CSV to `file`; the number of rows. */
export async function writeBalanceTransactionsCsv(db: Db, accountId: string, range: { from: string; to: string }, file: string) {
  const out = fs.createWriteStream(file);
  const write = (line: string) =>
    new Promise<void>((resolve, reject) => (out.write(line) ? resolve() : out.once('drain', resolve).once('error', reject)));
  let rows = 0;
  try {
    await write(COLUMNS.join(',') + '\n');
    let cursor: string | undefined;
    do {
      const page = await balanceTransactions(db, accountId, range, PAGE, cursor);
      for (const t of page.data) {
        const r = exportRow(t);
        await write(COLUMNS.map((c) => csvField(r[c], c === 'referenceId')).join(',') + '\n');
        rows++;
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  } finally {
    await new Promise<void>((resolve) => out.end(resolve));
  }
  return { rows, file };
}
