import type { Knex } from 'knex';
import { createDb, inTransaction, readsOf, type Db } from '../../src/db/knex';
import { describeOwn } from '../support/service';

// readsOf (src/db/knex.ts): independent reads side by side on the pool, one after another in a transaction, whose
// one connection must not be sent a query while another runs (node-postgres queues it with a deprecation warning;
// pg 9 refuses it). Gateway options and x402 quotes read this way inside an Idempotency-Key's transaction.

let db: Knex;
beforeAll(() => {
  db = createDb(process.env.DATABASE_URL!, 4);
});
afterAll(() => db?.destroy());

/** The most reads (of `sleepy`) sent and not yet answered at one time while `fn` runs. */
async function mostInFlight(fn: () => Promise<unknown>): Promise<number> {
  let now = 0;
  let most = 0;
  const ours = (q: { sql?: string }) => q.sql?.startsWith('select pg_sleep') === true;
  const sent = (q: { sql?: string }) => void (ours(q) && (most = Math.max(most, ++now)));
  const answered = (_e: unknown, q: { sql?: string }) => void (ours(q) && now--);
  db.on('query', sent).on('query-response', answered).on('query-error', answered);
  try {
    await fn();
  } finally {
    db.off('query', sent).off('query-response', answered).off('query-error', answered);
  }
  return most;
}
const sleepy = (d: Db, value: number) => async () =>
  (await (d as unknown as Knex).raw('select pg_sleep(0.05), ?::int AS v', [value])).rows[0].v as number;

describeOwn('independent reads', () => {
  it('run one at a time in a transaction, in their order', async () => {
    let got: number[] = [];
    const most = await mostInFlight(() =>
      inTransaction(db, async (trx) => {
        got = await readsOf(trx, [sleepy(trx, 1), sleepy(trx, 2), sleepy(trx, 3)]);
      }),
    );
    expect(got).toEqual([1, 2, 3]);
    expect(most).toBe(1);
  });

  it('run side by side on the pool', async () => {
    let got: number[] = [];
    const most = await mostInFlight(async () => {
      got = await readsOf(db, [sleepy(db, 1), sleepy(db, 2), sleepy(db, 3)]);
    });
    expect(got).toEqual([1, 2, 3]);
    expect(most).toBe(3);
  });
});
