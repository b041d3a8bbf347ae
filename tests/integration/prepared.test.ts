import { createDb, inTransaction, knexOf } from '../../src/db/knex';
import { preparedStatement } from '../../src/db/prepared';
import { isDatabaseUnavailable } from '../../src/db/unavailable';

// Prepared statements go straight to a pooled connection (src/db/prepared.ts), past knex's query builder:
// they must answer as knex would, run inside a caller's transaction, hand every connection back to the pool
// whatever happens, and fail the ways the rest of the service recognises (a statement timeout is a 503).
describe('prepared statements', () => {
  const db = createDb(process.env.DATABASE_URL!, 2);
  const pool = () => (db.client as { pool: { numUsed(): number; numFree(): number } }).pool;
  afterAll(() => db.destroy());

  const echo = preparedStatement(
    'paygate_test_echo',
    "SELECT ?::int + ?::int AS sum, ?::text AS word, ?::text[] AS list, ?::timestamptz AS at, 'why\\?' AS literal",
  );
  const at = new Date('2026-11-24T01:02:03.456Z');
  const bindings = [2, 40, 'pay_1', ['a', 'b'], at];

  it('answers what knex answers for the same SQL and values, rows and all', async () => {
    const direct = await echo(db, bindings);
    const viaKnex = await db.raw(
      "SELECT ?::int + ?::int AS sum, ?::text AS word, ?::text[] AS list, ?::timestamptz AS at, 'why\\?' AS literal",
      bindings,
    );
    expect(direct.rows).toEqual(viaKnex.rows);
    expect(direct.rows).toEqual([{ sum: 42, word: 'pay_1', list: ['a', 'b'], at, literal: 'why?' }]);
    expect(direct.command).toBe('SELECT');
    expect(pool().numUsed()).toBe(0);
  });

  it('runs many calls over a small pool, prepared once per connection, and gives every connection back', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => echo(db, [i, 1, 'w', [], at])));
    expect(results.map((r) => r.rows[0].sum)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(pool().numUsed()).toBe(0);
    const { rows } = await db.raw("SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = 'paygate_test_echo'");
    expect(rows[0].n).toBe(1); // this connection's (each connection has its own)
  });

  it('planEachCall: the same answers, planned for each call (never a named statement the connection keeps), on the pool and in a transaction', async () => {
    const fresh = preparedStatement('paygate_test_fresh', 'SELECT ?::int * 2 AS twice, txid_current()::text AS id', { planEachCall: true });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => fresh(db, [i])));
    expect(results.map((r) => r.rows[0].twice)).toEqual(Array.from({ length: 10 }, (_, i) => i * 2));
    await inTransaction(db, async (trx) => {
      const { rows: mine } = await knexOf(trx).raw('SELECT txid_current()::text AS id');
      expect((await fresh(trx, [21])).rows[0]).toEqual({ twice: 42, id: mine[0].id });
      const { rows } = await knexOf(trx).raw("SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = 'paygate_test_fresh'");
      expect(rows[0].n).toBe(0);
    });
    const { rows } = await db.raw("SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = 'paygate_test_fresh'");
    expect(rows[0].n).toBe(0);
    expect(pool().numUsed()).toBe(0);
  });

  it("runs inside a caller's transaction, on its connection", async () => {
    const read = preparedStatement('paygate_test_txid', 'SELECT txid_current()::text AS id, ?::int AS x');
    await inTransaction(db, async (trx) => {
      const { rows: mine } = await knexOf(trx).raw('SELECT txid_current()::text AS id');
      const { rows } = await read(trx, [1]);
      expect(rows[0].id).toBe(mine[0].id);
    });
    expect(pool().numUsed()).toBe(0);
  });

  it('rejects with the database error, and the connection goes back to the pool', async () => {
    const divide = preparedStatement('paygate_test_divide', 'SELECT 1 / ?::int AS q');
    await expect(divide(db, [0])).rejects.toMatchObject({ code: '22012' }); // division_by_zero
    expect(pool().numUsed()).toBe(0);
    expect((await divide(db, [1])).rows).toEqual([{ q: 1 }]);
  });

  it('refuses a wrong number of values, or an undefined one, before sending anything', async () => {
    await expect(echo(db, [1, 2])).rejects.toThrow(/expected 5 bindings, got 2/);
    await expect(echo(db, [1, 2, undefined as never, [], at])).rejects.toThrow(/undefined binding/);
    expect(pool().numUsed()).toBe(0);
  });

  it('fails a statement that outlives statement_timeout as "database unavailable" (503)', async () => {
    const slow = createDb(process.env.DATABASE_URL!, 1, { statementTimeoutMs: 200 });
    try {
      const sleep = preparedStatement('paygate_test_sleep', 'SELECT pg_sleep(?::float8) AS slept');
      const err = await sleep(slow, [5]).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: '57014' });
      expect(isDatabaseUnavailable(err)).toBe(true);
      expect((await sleep(slow, [0])).rows).toHaveLength(1);
    } finally {
      await slow.destroy();
    }
  });
});
