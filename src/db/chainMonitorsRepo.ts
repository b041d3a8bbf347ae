import { Db, knexOf } from './knex';
import { TX_OPEN } from '../domain/chainTx';

// The relayer's monitors: which process watches a relayer key on a chain (a lease), and what an operator is shown of
// the transactions they watch.

type Row = Record<string, any>;

/**
 * One process at a time watches a relayer key on a chain (`chain_monitors.chain_id` holds "<caip2>/<address>"),
 * and only a process that holds the key (it may have to sign a replacement). The lease is renewed by the
 * passes (monitorLease) and taken over when it lapses.
 */
async function takeMonitorLease(db: Db, chainId: string, holder: string, ms: number): Promise<boolean> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `INSERT INTO chain_monitors (chain_id, holder, lease_until) VALUES (?, ?, now() + make_interval(secs => ?))
     ON CONFLICT (chain_id) DO UPDATE SET holder = EXCLUDED.holder, lease_until = EXCLUDED.lease_until
       WHERE chain_monitors.holder = EXCLUDED.holder OR chain_monitors.lease_until < now()
     RETURNING holder`,
    [chainId, holder, ms / 1000],
  );
  return rows.length > 0;
}

/**
 * The lease of one monitor, for its passes: `hold()` renews it only once half of it has passed since it was last
 * asked for, so an idle pass writes nothing. Until then it is surely still this holder's: the database set it to
 * end `ms` after a moment no earlier than the ask, and nobody takes a lease that has not lapsed.
 */
export function monitorLease(db: Db, chainId: string, holder: string, ms: number): { hold(): Promise<boolean> } {
  let renewAt = 0;
  return {
    async hold() {
      const asked = Date.now();
      if (asked < renewAt) return true;
      const held = await takeMonitorLease(db, chainId, holder, ms);
      renewAt = held ? asked + ms / 2 : 0;
      return held;
    },
  };
}

export async function releaseMonitorLease(db: Db, chainId: string, holder: string): Promise<void> {
  const knex = knexOf(db);
  await knex('chain_monitors').where({ chain_id: chainId, holder }).del();
}

/** For metrics: pending transactions per chain and sender, the age of the oldest, and how many are at their fee limit. */
export async function pendingStats(
  db: Db,
): Promise<{ chainId: string; sender: string; pending: number; oldestAgeS: number; feeLimited: number }[]> {
  const knex = knexOf(db);
  const rows = await knex('chain_transactions')
    .whereIn('status', TX_OPEN)
    .groupBy('chain_id', 'sender')
    .select(
      'chain_id',
      'sender',
      knex.raw('count(*)::int as pending'),
      knex.raw('extract(epoch from now() - min(created_at))::float8 as age'),
      knex.raw('(count(*) filter (where fee_limited_at is not null))::int as fee_limited'),
    );
  return rows.map((r: Row) => ({
    chainId: r.chain_id,
    sender: r.sender,
    pending: Number(r.pending),
    oldestAgeS: Number(r.age),
    feeLimited: Number(r.fee_limited),
  }));
}

/** Relayer transactions signed over the last `hours`, per chain, purpose and status (pending to confirmed, reverted, dropped). */
export async function transactionsSince(
  db: Db,
  hours: number,
): Promise<{ chainId: string; purpose: string; status: string; count: number }[]> {
  const { rows } = await knexOf(db).raw(
    `SELECT chain_id, purpose, status, count(*)::int AS n FROM chain_transactions
      WHERE created_at > now() - make_interval(hours => ?) GROUP BY chain_id, purpose, status`,
    [hours],
  );
  return rows.map((r: Row) => ({ chainId: r.chain_id, purpose: r.purpose, status: r.status, count: Number(r.n) }));
}
