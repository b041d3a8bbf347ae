import { Db, knexOf } from './knex';
import { PAID_TO_COLLECTOR } from './relayer';
import { TX_OPEN } from '../domain/chainTx';

// What a relayer key still has to do, by the payments whose option names it (`payment_options.relayer`: the
// key that submits the authorization and, in collector mode, receives the buyer's funds), and the check a sweep
// of the key makes under its nonce lock (src/usecases/relayer/retirement.ts).

type Row = Record<string, any>;

export interface RelayerPayments {
  /** Confirmed, its chain transaction not yet final. */
  processing: string[];
  /** Collected by the key (ReceiveWithAuthorization or a permit to it), succeeded, not yet settled: their settlement is owed from it. */
  unsettled: string[];
  /** Options naming the key that a buyer may still confirm. */
  openOptions: number;
}

export async function relayerPayments(db: Db, chainId: string, relayer: string): Promise<RelayerPayments> {
  const knex = knexOf(db);
  const { rows } = await knex.raw(
    `SELECT p.id, p.status FROM payments p JOIN payment_options o ON o.id = p.option_id
     WHERE o.chain_id = ? AND o.relayer = ? AND (p.status = 'processing' OR (p.status = 'succeeded' AND p.settled_at IS NULL
       AND ${PAID_TO_COLLECTOR}))
     ORDER BY p.created_at, p.id`,
    [chainId, relayer],
  );
  const { rows: options } = await knex.raw(
    `SELECT count(*)::int AS n FROM payment_options o JOIN payments p ON p.id = o.payment_id
     WHERE p.status = 'requires_action' AND o.chain_id = ? AND o.relayer = ? AND o.expires_at > now()`,
    [chainId, relayer],
  );
  return {
    processing: rows.filter((r: Row) => r.status === 'processing').map((r: Row) => r.id),
    unsettled: rows.filter((r: Row) => r.status === 'succeeded').map((r: Row) => r.id),
    openOptions: Number(options[0].n),
  };
}

/** The database's clock now. */
export async function databaseNow(db: Db): Promise<Date> {
  const { rows } = await knexOf(db).raw('SELECT clock_timestamp() AS now');
  return new Date(rows[0].now);
}

/**
 * Whether a transaction of the sender other than `except` is open, or was stored or became final at or after
 * `since`: then what was read of the sender's balance and work at `since` may no longer hold.
 */
export async function senderBusySince(db: Db, chainId: string, sender: string, since: Date, except: string[]): Promise<boolean> {
  const knex = knexOf(db);
  const row = await knex('chain_transactions')
    .where({ chain_id: chainId, sender })
    .whereNotIn('id', except)
    .where((q) => q.whereIn('status', TX_OPEN).orWhere('created_at', '>=', since).orWhere('finished_at', '>=', since))
    .first('id');
  return row !== undefined;
}
