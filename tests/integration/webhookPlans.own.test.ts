import type { Knex } from 'knex';
import { createDb } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';
import * as repo from '../../src/db/webhooks';
import { freshDatabase } from '../support/freshDb';
import { insertPayment, insertShop } from '../support/rows';

// The statements that change deliveries they name by id (claims, recorded outcomes, cancellation) read those
// deliveries, not every pending one, whatever the planner's statistics say. Their plans are made once per
// connection; statistics taken while delivery kept up count no pending delivery, and with them a partial index of
// pending deliveries looked empty: the planner read it whole on every call, 1,400-1,500 buffers per claim and per
// record during a 2,000-event backlog (migration 20261201090200). Here the statistics are taken with nothing
// pending, then 1,500 deliveries become pending, and each statement's reads are counted in its transaction: index
// entries read in any index of webhook_deliveries, rows fetched through them, and rows read by sequential scans.

const BACKLOG = 1500;
const caps = { perEndpoint: 16, perAccount: 16 };

/** Rows and index entries of webhook_deliveries read so far in the caller's transaction. */
async function rowsRead(trx: Knex.Transaction): Promise<number> {
  const { rows } = await trx.raw(
    `SELECT (SELECT coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0) FROM pg_stat_xact_user_tables WHERE relname = 'webhook_deliveries')
          + (SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(indexrelid)), 0) FROM pg_index WHERE indrelid = 'webhook_deliveries'::regclass) AS n`,
  );
  return Number(rows[0].n);
}

describe('deliveries named by id are read by their primary key, whatever the statistics', () => {
  it('claims, recorded outcomes and cancellation read a few rows with 1,500 pending deliveries the statistics do not know of', async () => {
    const fresh = await freshDatabase('paygate_plans');
    const db = createDb(fresh.url, 2);
    try {
      await migrateLatest(db);
      await db.raw('ALTER TABLE webhook_deliveries SET (autovacuum_enabled = false)'); // no ANALYZE but ours
      await insertShop(db, 'acct_p', 'mrch_p');
      await insertPayment(db, 'pay_p', 'acct_p', 'mrch_p');
      await db('payment_events').insert({
        id: 'evt_p',
        payment_id: 'pay_p',
        account_id: 'acct_p',
        type: 'payment.created',
        version: 1,
        record: JSON.stringify({ version: 1 }),
        dispatched_at: db.fn.now(),
      });
      await db('webhook_endpoints').insert({
        id: 'we_p',
        account_id: 'acct_p',
        url: 'https://hooks.example/p',
        enabled_events: ['payment.created'],
        api_version: '2026-02-19.preview',
        secret: Buffer.alloc(32),
      });
      // Delivered, as when delivery keeps up; the statistics see them so. Then a backlog builds up.
      await db.raw(
        `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, account_id, status, redelivery, next_attempt_at)
           SELECT 'whd_p' || g, 'evt_p', 'we_p', 'acct_p', 'succeeded', true, NULL FROM generate_series(1, ?) g`,
        [BACKLOG],
      );
      await db.raw('ANALYZE webhook_deliveries');
      await db('webhook_deliveries').update({ status: 'pending', next_attempt_at: db.raw("now() - interval '1 minute'") });

      const reads: Record<string, number> = {};
      const measure = async (name: string, work: (trx: Knex.Transaction) => Promise<unknown>) =>
        db.transaction(async (trx) => {
          const before = await rowsRead(trx);
          const result = await work(trx);
          reads[name] = (await rowsRead(trx)) - before;
          return result;
        });

      const claimed = (await measure('claim four of the account', (trx) =>
        repo.claimDeliveries(trx, 'acct_p', [], 4, 60_000, caps),
      )) as repo.Claimed[];
      expect(claimed).toHaveLength(4);
      await measure('record four successes', (trx) =>
        repo.recordSuccesses(
          trx,
          claimed.map((c, i) => ({
            delivery: c.delivery,
            outcome: {
              leaseToken: c.leaseToken,
              attemptId: `wha_p${i}`,
              attemptedAt: new Date(),
              durationMs: 3,
              responseStatus: 204,
              error: null,
              succeeded: true,
              nextAttemptAt: null,
            },
          })),
        ),
      );
      const one = (await measure('claim one by id, within the caps', (trx) =>
        repo.claimDelivery(trx, 'whd_p7', 60_000, 'token-caps', caps),
      )) as repo.Claimed;
      expect(one.delivery.id).toBe('whd_p7');
      await measure('record a failure', (trx) =>
        repo.recordAttempt(
          trx,
          one.delivery,
          {
            leaseToken: 'token-caps',
            attemptId: 'wha_pf',
            attemptedAt: new Date(),
            durationMs: 3,
            responseStatus: 503,
            error: 'HTTP 503',
            succeeded: false,
            nextAttemptAt: new Date(Date.now() + 60_000),
          },
          { disableAfterMs: 86_400_000, streakGapMs: 3_600_000 },
        ),
      );
      const plain = (await measure('claim one by id', (trx) => repo.claimDelivery(trx, 'whd_p9', 60_000, 'token-plain'))) as repo.Claimed;
      expect(plain.delivery.id).toBe('whd_p9');
      await measure('cancel it', (trx) => repo.cancelDelivery(trx, 'whd_p9', 'token-plain'));

      // What each did, as stored.
      const status = async (id: string) => (await db('webhook_deliveries').where({ id }).first()).status;
      expect(await Promise.all(claimed.map((c) => status(c.delivery.id)))).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
      expect(await db('webhook_deliveries').where({ id: 'whd_p7' }).first()).toMatchObject({
        status: 'pending',
        attempts: 1,
        lease_token: null,
      });
      expect(await status('whd_p9')).toBe('cancelled');
      // Reading the backlog would be 1,500 rows or more per statement.
      for (const [name, n] of Object.entries(reads))
        expect({ name, read: n, fewerThan100: n < 100 }).toMatchObject({ name, fewerThan100: true });
      console.log(`rows of webhook_deliveries read with ${BACKLOG} pending: ${JSON.stringify(reads)}`);
    } finally {
      await db.destroy();
      await fresh.drop();
    }
  }, 60_000);
});
