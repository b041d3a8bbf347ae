import type { Knex } from 'knex';
import { createDb, inTransaction, readsOf, type Db } from '../../src/db/knex';

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

describe('independent reads', () => {
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
    // Each read waits for a lock this test holds until all three are in flight (or 10 s have passed: reads one
    // after another would then count 1), so the count does not depend on how fast the machine opens connections.
    const gate = await db.client.acquireConnection();
    const query = (sql: string) => new Promise((ok, ko) => gate.query(sql, (e: unknown, r: unknown) => (e ? ko(e) : ok(r))));
    await query('select pg_advisory_lock(4711)');
    const gated = (value: number) => async () =>
      (await db.raw('select pg_advisory_xact_lock_shared(4711), ?::int AS v', [value])).rows[0].v as number;
    let got: number[];
    let now = 0;
    let most = 0;
    const ours = (q: { sql?: string }) => q.sql?.startsWith('select pg_advisory_xact_lock_shared') === true;
    const sent = (q: { sql?: string }) => {
      if (ours(q)) most = Math.max(most, ++now);
      if (most === 3) void query('select pg_advisory_unlock(4711)');
    };
    const answered = (_e: unknown, q: { sql?: string }) => void (ours(q) && now--);
    db.on('query', sent).on('query-response', answered).on('query-error', answered);
    const fallback = setTimeout(() => void query('select pg_advisory_unlock(4711)'), 10_000);
    try {
      got = await readsOf(db, [gated(1), gated(2), gated(3)]);
    } finally {
      clearTimeout(fallback);
      db.off('query', sent).off('query-response', answered).off('query-error', answered);
      await db.client.releaseConnection(gate);
    }
    expect(got).toEqual([1, 2, 3]);
    expect(most).toBe(3);
  });
});
