import type { Knex } from 'knex';
import { BatchOptions, batches, Batches } from '../../lib/batches';
import { isDatabaseUnavailable } from '../unavailable';
import { Db, knexOf } from '../knex';

// Reads of a payment and creations on the pool are batched (lib/batches.ts): those that arrive while two
// statements of their kind are under way go together in the next one (64 at most), as one round trip, one plan
// execution and one commit. Two, so that one statement's commit overlaps the next one's work; more bought nothing in
// make bench, and the rest of the pool stays free for everything else. A read joins only a statement that starts
// after it was asked for, so it sees every change committed before (and its db_now is no earlier).
// For creations (BATCHING), a failure is everyone's when the database cannot be reached or no connection came in
// time, not when the statement ran past statement_timeout: that may be one creation's doing (a merchant row locked
// by hand blocks the foreign-key check of its payments), so each creation of the statement is then tried alone.
// A read by id cannot be held up by one of its ids, so for reads (READ_BATCHING) a timeout is everyone's too.
const STATEMENT_TIMEOUT = '57014';
const whose = (everyones: (e: unknown) => boolean) => (e: unknown) => (everyones(e) ? 'everyone' : 'alone') as 'everyone' | 'alone';
const BATCHING: BatchOptions = {
  running: 2,
  max: 64,
  failure: whose((e) => isDatabaseUnavailable(e) && (e as { code?: unknown }).code !== STATEMENT_TIMEOUT),
};
export const READ_BATCHING: BatchOptions = { ...BATCHING, failure: whose(isDatabaseUnavailable) };

/** `run` on the pool of `db`, batched: one Batches per pool, kept in `per` (made on the pool's first call). */
export function onPool<T, R>(
  per: WeakMap<Knex, Batches<T, R>>,
  db: Db,
  run: (db: Db, items: T[]) => Promise<R[]>,
  options: BatchOptions = BATCHING,
): Batches<T, R> {
  const knex = knexOf(db);
  let batched = per.get(knex);
  if (!batched) per.set(knex, (batched = batches((items: T[]) => run(db, items), options)));
  return batched;
}
