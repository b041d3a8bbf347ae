import { Db, knexOf } from './knex';
import { PAID_TO_COLLECTOR, standing } from './relayer';
import { ON_SCHEDULE } from './settlementBatchesRepo';

// The reconciler's queries (src/jobs/chainJobs.ts, rescue): payments whose chain work was lost, and those that no
// chain work can move.

const LIVE_AUTHORIZATION_TX = `EXISTS (SELECT 1 FROM chain_transactions c WHERE c.payment_id = p.id
  AND c.purpose IN ('collect','direct') AND ${standing('c')})`;

export interface Stranded {
  /** Processing payments with their option and no live transaction of their authorization: submit them (again). */
  submit: string[];
  /** Succeeded collector-mode payments not settled, not held and without a live settlement transaction, idle or due; not on a schedule. */
  settle: string[];
  /** Processing payments without their option (and no live transaction): nothing can submit them. */
  unsubmittable: { count: number; ids: string[] };
}

/**
 * The reconciler's work: processing payments whose authorization has no live transaction (a crash between
 * confirm and enqueue, a lost job, a dropped transaction), and succeeded collector-mode payments not yet
 * settled, not held and without a live settlement transaction. Only those idle for `idleS` (fresh work is left
 * to its job), or whose next settlement attempt is due. Processing payments without an option are listed apart:
 * they would otherwise come first at every pass (the longest idle) and hold the others back.
 */
export async function strandedPayments(db: Db, idleS: number, limit = 100): Promise<Stranded> {
  const knex = knexOf(db);
  const { rows: submit } = await knex.raw(
    `SELECT p.id FROM payments p JOIN payment_options o ON o.id = p.option_id WHERE p.status = 'processing'
      AND p.updated_at < now() - make_interval(secs => ?) AND NOT ${LIVE_AUTHORIZATION_TX}
    ORDER BY p.updated_at LIMIT ?`,
    [idleS, limit],
  );
  const { rows: settle } = await knex.raw(
    `SELECT p.id FROM payments p JOIN payment_options o ON o.id = p.option_id JOIN accounts a ON a.id = p.account_id
    WHERE p.status = 'succeeded' AND p.settled_at IS NULL AND p.settlement_held_at IS NULL AND NOT ${ON_SCHEDULE('p', 'a')}
      AND coalesce(p.settlement_next_at <= now(), p.updated_at < now() - make_interval(secs => ?))
      AND ${PAID_TO_COLLECTOR}
      AND NOT EXISTS (SELECT 1 FROM chain_transactions s WHERE s.payment_id = p.id AND s.purpose = 'settle' AND ${standing('s')})
    ORDER BY p.updated_at LIMIT ?`,
    [idleS, limit],
  );
  const { rows: unsubmittable } = await knex.raw(
    `SELECT p.id, count(*) OVER ()::int AS total FROM payments p LEFT JOIN payment_options o ON o.id = p.option_id
    WHERE p.status = 'processing' AND o.id IS NULL AND p.updated_at < now() - make_interval(secs => ?) AND NOT ${LIVE_AUTHORIZATION_TX}
    ORDER BY p.updated_at LIMIT ?`,
    [idleS, limit],
  );
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
  return {
    submit: ids(submit),
    settle: ids(settle),
    unsubmittable: { count: unsubmittable[0]?.total ?? 0, ids: ids(unsubmittable) },
  };
}
