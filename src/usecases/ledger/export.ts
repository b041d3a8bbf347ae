import fs from 'node:fs';
import type { Db } from '../../db/knex';
import type { BalanceTransaction } from '../../db/ledger';
import { balanceTransactions } from './records';

// Reconciliation exports of an account's ledger entries: the row as GET /v1/reports/balance-transactions shows it,
// and the same rows as CSV (`admin report balance-transactions --format csv`), written a page at a time so that
// memory stays flat however many rows there are.

export const exportRow = (t: BalanceTransaction) => ({
  id: `btx_${t.id}`,
  type: t.kind,
  bucket: t.bucket as 'available' | 'pending' | 'reserved' | 'funding',
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

/**
 * The account's balance transactions in [from, to) as CSV, a page of rows at a time (read by cursor, nothing more
 * held): the header line first. The first page is read before this returns, so a bad range is refused (400) before
 * anything is sent.
 */
export async function balanceTransactionsCsv(
  db: Db,
  accountId: string,
  range: { from: string; to: string },
): Promise<AsyncGenerator<{ text: string; rows: number }>> {
  const first = await balanceTransactions(db, accountId, range, PAGE);
  const lines = (page: BalanceTransaction[]) =>
    page.map((t) => {
      const r = exportRow(t);
      return COLUMNS.map((c) => csvField(r[c], c === 'referenceId')).join(',') + '\n';
    });
  async function* pages() {
    yield { text: COLUMNS.join(',') + '\n', rows: 0 };
    let page = first;
    for (;;) {
      yield { text: lines(page.data).join(''), rows: page.data.length };
      if (!page.nextCursor) return;
      page = await balanceTransactions(db, accountId, range, PAGE, page.nextCursor);
    }
  }
  return pages();
}

/** Writes the account's balance transactions in [from, to) as CSV to `file`; the number of rows. */
export async function writeBalanceTransactionsCsv(db: Db, accountId: string, range: { from: string; to: string }, file: string) {
  const pages = await balanceTransactionsCsv(db, accountId, range);
  const out = fs.createWriteStream(file);
  const write = (text: string) =>
    new Promise<void>((resolve, reject) => (out.write(text) ? resolve() : out.once('drain', resolve).once('error', reject)));
  let rows = 0;
  try {
    for await (const page of pages) {
      await write(page.text);
      rows += page.rows;
    }
  } finally {
    await new Promise<void>((resolve) => out.end(resolve));
  }
  return { rows, file };
}
