import type { Handler } from '../../src/http/handlerTypes';
import { balanceTransactions } from '../../src/usecases/ledger/records';
import { balanceTransactionsCsv, exportRow } from '../../src/usecases/ledger/export';

/** JSON pages, or with `Accept: text/csv` every row of the range as CSV, streamed. */
export const listBalanceTransactions: Handler<'listBalanceTransactions'> = async ({ db, caller, query, headers }) => {
  const range = { from: query.from, to: query.to };
  if (wantsCsv(headers.accept)) {
    const pages = await balanceTransactionsCsv(db, caller.accountId, range);
    return {
      status: 200,
      type: 'text/csv; charset=utf-8',
      stream: (async function* () {
        for await (const p of pages) yield p.text;
      })(),
    };
  }
  const page = await balanceTransactions(db, caller.accountId, range, query.limit ?? 100, query.cursor);
  const livemode = caller.mode === 'live';
  return { status: 200, body: { data: page.data.map((r) => ({ ...exportRow(r), livemode })), nextCursor: page.nextCursor } };
};

/** CSV when the client asks for it before JSON (or alone). */
function wantsCsv(accept: string | undefined): boolean {
  const types = (accept ?? '').split(',').map((t) => t.split(';')[0].trim().toLowerCase());
  const csv = types.indexOf('text/csv');
  const json = types.findIndex((t) => t === 'application/json' || t === '*/*' || t === 'application/*');
  return csv !== -1 && (json === -1 || csv < json);
}
