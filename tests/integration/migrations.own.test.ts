import fs from 'node:fs';
import { createDb } from '../../src/db/knex';
import { migrateLatest, migrationsDir } from '../../src/db/migrate';
import { findEvent } from '../../src/db/webhooks';
import { renderEvent } from '../../src/wire/events';
import { freshDatabase } from '../support/freshDb';
import { insertPayment, insertShop } from '../support/rows';

/** Runs `test` on a fresh database migrated to the latest migration, dropped afterwards. */
async function onMigratedDatabase(name: string, test: (db: ReturnType<typeof createDb>) => Promise<void>): Promise<void> {
  const fresh = await freshDatabase(name);
  const db = createDb(fresh.url, 2);
  try {
    await migrateLatest(db);
    await test(db);
  } finally {
    await db.destroy();
    await fresh.drop();
  }
}

describe('migrations at start', () => {
  // Several processes starting at once on a fresh database: knex alone fails all but one of them
  // ("relation knex_migrations_lock already exists"); the advisory lock in migrateLatest serialises them.
  it('are safe when several processes migrate the same fresh database at once', async () => {
    const files = fs
      .readdirSync(migrationsDir)
      .filter((f) => f.endsWith('.js'))
      .sort();
    const fresh = await freshDatabase('paygate_migrate');
    const pools = [0, 1, 2, 3].map(() => createDb(fresh.url, 2));
    try {
      const applied = await Promise.all(pools.map((db) => migrateLatest(db)));
      expect(applied.flat().sort()).toEqual(files); // every migration ran once, in one of the processes
      const rows = await pools[0]('knex_migrations').select('name');
      expect(rows.map((r) => r.name).sort()).toEqual(files);
      expect(await Promise.all(pools.map((db) => migrateLatest(db)))).toEqual([[], [], [], []]);
    } finally {
      await Promise.all(pools.map((db) => db.destroy()));
      await fresh.drop();
    }
  });
});

describe('payment events get a version-neutral record (20261127090100_payment_events_record)', () => {
  // Events stored before it have only `data` (the 2026-02-19.preview snapshot); they are read as records,
  // and render to exactly what is stored.
  const stored = [
    {
      paymentId: 'pay_a',
      merchantId: 'mrch_a',
      referenceId: 'order-1',
      status: 'requires_action',
      isFinal: false,
      failureCode: null,
      amount: { unit: 'iso4217/USD', value: '1000' },
      tokenAmount: null,
      txId: null,
      cancelledReason: null,
      refundedAt: null,
      createdAt: '2026-11-23T05:00:00.123Z',
      expiresAt: 1795410000,
      version: 1,
    },
    {
      paymentId: 'pay_b',
      merchantId: 'mrch_a',
      referenceId: 'order-2',
      status: 'succeeded',
      isFinal: true,
      failureCode: null,
      amount: { unit: 'iso4217/EUR', value: '250' },
      tokenAmount: { unit: 'caip19/eip155:31337/erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3', value: '2500000' },
      txId: '0x' + 'ab'.repeat(32),
      cancelledReason: null,
      refundedAt: '2026-11-23T06:00:00.000Z',
      createdAt: '2026-11-23T05:00:01.000Z',
      expiresAt: 1795410001,
      version: 4,
    },
  ];

  it('adds the column without rewriting rows; events stored before it read as records that render the same', async () => {
    const file = fs.readdirSync(migrationsDir).find((f) => f.includes('payment_events_record'))!;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const migration = require(`${migrationsDir}/${file}`);
    const fresh = await freshDatabase('paygate_events');
    const db = createDb(fresh.url, 2);
    try {
      await db.raw(`CREATE TABLE payment_events (id text PRIMARY KEY, payment_id text, account_id text, type text, version int,
        data jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
      await db('payment_events').insert(
        stored.map((d, i) => ({
          id: `evt_${i}`,
          payment_id: d.paymentId,
          account_id: 'acct',
          type: 'payment.created',
          version: d.version,
          data: JSON.stringify(d),
        })),
      );
      await migration.up(db);
      expect((await db('payment_events').orderBy('id')).map((r) => [r.data, r.record])).toEqual(stored.map((d) => [d, null]));
      const events = await Promise.all(stored.map((_d, i) => findEvent(db, `evt_${i}`)));
      expect(events[0]!.record).toEqual({
        paymentId: 'pay_a',
        merchantId: 'mrch_a',
        referenceId: 'order-1',
        status: 'requires_action',
        failureCode: null,
        currency: 'USD',
        amountMinor: '1000',
        tokenAsset: null,
        tokenAmount: null,
        txHash: null,
        cancelledReason: null,
        refundedAt: null,
        createdAt: '2026-11-23T05:00:00.123Z',
        expiresAt: new Date(1795410000 * 1000).toISOString(),
        version: 1,
      });
      expect(events[1]!.record).toMatchObject({
        currency: 'EUR',
        tokenAsset: 'eip155:31337/erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3',
        tokenAmount: '2500000',
      });
      // The snapshots stored before, plus what came later (livemode, issue 32).
      events.forEach((e, i) => expect(renderEvent(e!, '2026-02-19.preview').data.payment).toEqual({ ...stored[i], livemode: true }));
      await migration.down(db);
      expect(await db('payment_events').columnInfo()).not.toHaveProperty('record');
    } finally {
      await db.destroy();
      await fresh.drop();
    }
  });
});

describe("a payment's merchant and account are one key (20261130090000_payments_merchant_account_foreign_key)", () => {
  // The database refuses a payment whose account is not its merchant's account (before, two separate keys
  // accepted any existing merchant with any existing account); the two old keys are gone; the migration runs again
  // without effect (it runs outside a transaction, so a start that died halfway is completed by the next).
  it("refuses a payment of another account's merchant, and can run again", async () => {
    await onMigratedDatabase('paygate_fk', async (db) => {
      await insertShop(db, 'acct_a', 'mrch_a');
      await db('accounts').insert({ id: 'acct_b', name: 'B', default_version: '2026-02-18' });
      const payment = (id: string, accountId: string, merchantId: string) => insertPayment(db, id, accountId, merchantId);
      await payment('pay_1', 'acct_a', 'mrch_a');
      await expect(payment('pay_2', 'acct_b', 'mrch_a')).rejects.toMatchObject({
        code: '23503',
        constraint: 'payments_merchant_account_foreign',
      });
      await expect(payment('pay_3', 'acct_a', 'mrch_nope')).rejects.toMatchObject({ code: '23503' });
      const keys = async () =>
        (
          await db.raw("SELECT conname FROM pg_constraint WHERE conrelid = 'payments'::regclass AND contype = 'f' ORDER BY conname")
        ).rows.map((r: { conname: string }) => r.conname);
      expect(await keys()).toEqual(['payments_merchant_account_foreign', 'payments_option_id_foreign']);
      const file = fs.readdirSync(migrationsDir).find((f) => f.includes('payments_merchant_account_foreign_key'))!;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      await require(`${migrationsDir}/${file}`).up(db);
      expect(await keys()).toEqual(['payments_merchant_account_foreign', 'payments_option_id_foreign']);
      expect((await db('payments').select('id')).map((r) => r.id)).toEqual(['pay_1']);
    });
  });
});

describe("a payment's option is a key (20261202091100_payments_option_foreign_key)", () => {
  // Ids that named no option are cleared, so the key validates; from then on a payment cannot refer to an option
  // that is gone, and an option a payment refers to cannot go. The migration runs again without effect.
  it('clears dangling option ids, then refuses new ones; can run again', async () => {
    await onMigratedDatabase('paygate_option_fk', async (db) => {
      await insertShop(db, 'acct_a', 'mrch_a');
      await insertPayment(db, 'pay_1', 'acct_a', 'mrch_a');
      await insertPayment(db, 'pay_2', 'acct_a', 'mrch_a');
      const asset = (await db('assets').first('id')).id;
      await db('payment_options').insert({
        ...{ id: 'opt_1', payment_id: 'pay_1', account: 'eip155:1:0x0', asset, chain_id: 'eip155:1', token_amount: '1' },
        ...{ typed_data: '{}', nonce: '0x0', collect_data: false, expires_at: db.fn.now() },
      });
      // As before the key: one payment refers to its option, another to one that was purged.
      await db.raw('ALTER TABLE payments DROP CONSTRAINT payments_option_id_foreign');
      await db('payments').where({ id: 'pay_1' }).update({ option_id: 'opt_1', status: 'processing' });
      await db('payments').where({ id: 'pay_2' }).update({ option_id: 'opt_gone', status: 'processing' });
      const file = fs.readdirSync(migrationsDir).find((f) => f.includes('payments_option_foreign_key'))!;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const migration = require(`${migrationsDir}/${file}`);
      await migration.up(db);
      await migration.up(db);
      const rows = await db('payments').orderBy('id').select('id', 'option_id');
      expect(rows.map((r) => [r.id, r.option_id])).toEqual([
        ['pay_1', 'opt_1'],
        ['pay_2', null],
      ]);
      const violation = { code: '23503', constraint: 'payments_option_id_foreign' };
      await expect(db('payments').where({ id: 'pay_2' }).update({ option_id: 'opt_gone' })).rejects.toMatchObject(violation);
      await expect(db('payment_options').where({ id: 'opt_1' }).delete()).rejects.toMatchObject(violation);
      const { rows: valid } = await db.raw("SELECT convalidated FROM pg_constraint WHERE conname = 'payments_option_id_foreign'");
      expect(valid).toEqual([{ convalidated: true }]);
    });
  });
});

describe('the webhook outbox queue (20261201090000_payment_event_outbox)', () => {
  // Undone, the events still queued go back to the previous release's outbox (dispatched_at NULL), so a rollback
  // loses none of them; events already fanned out stay marked.
  it('gives queued events back to the previous outbox when undone', async () => {
    await onMigratedDatabase('paygate_outbox', async (db) => {
      await insertShop(db, 'acct_a', 'mrch_a');
      await insertPayment(db, 'pay_1', 'acct_a', 'mrch_a');
      // Events as this release writes them: marked at write, one queued, one already fanned out (dequeued).
      await db('payment_events').insert(
        ['evt_queued', 'evt_done'].map((id, i) => ({
          id,
          payment_id: 'pay_1',
          account_id: 'acct_a',
          type: 'payment.created',
          version: i + 1,
          record: JSON.stringify({ version: i + 1 }),
          dispatched_at: db.fn.now(),
        })),
      );
      await db('payment_event_outbox').insert({ event_id: 'evt_queued', account_id: 'acct_a', type: 'payment.created' });
      const file = fs.readdirSync(migrationsDir).find((f) => f.includes('payment_event_outbox'))!;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const migration = require(`${migrationsDir}/${file}`);
      await migration.down(db);
      const rows = await db('payment_events').orderBy('id').select('id', 'dispatched_at');
      expect(rows.map((r) => [r.id, r.dispatched_at === null])).toEqual([
        ['evt_done', false],
        ['evt_queued', true],
      ]);
      expect(await db.schema.hasTable('payment_event_outbox')).toBe(false);
      await migration.up(db);
      expect(await db('payment_event_outbox').count({ n: '*' })).toEqual([{ n: '0' }]);
    });
  });
});

describe('the refund reserve (20261227090000 to 20261227090200)', () => {
  // Accounts from before follow the operator's reserve (NULL terms); the ledger takes the `reserve` bucket and the
  // reserves table its rows; undone, the three go away in order and the accounts written before are untouched.
  it('accounts from before follow the operator; reserve rows are taken; down undoes the three', async () => {
    await onMigratedDatabase('paygate_reserve', async (db) => {
      await insertShop(db, 'acct_a', 'mrch_a');
      expect(await db('accounts').where({ id: 'acct_a' }).first('refund_reserve_bps', 'refund_reserve_window_minutes')).toEqual({
        refund_reserve_bps: null,
        refund_reserve_window_minutes: null,
      });
      await expect(db('accounts').where({ id: 'acct_a' }).update({ refund_reserve_bps: 10_001 })).rejects.toMatchObject({
        code: '23514',
        constraint: 'accounts_refund_reserve_bps_check',
      });
      const bucketOk = await db.raw(
        `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'ledger_entries_bucket_check'`,
      );
      expect(bucketOk.rows[0].def).toMatch(/'reserve'/);
      await insertPayment(db, 'pay_1', 'acct_a', 'mrch_a');
      const asset = (await db('assets').first('id')).id;
      await db('refund_reserves').insert({
        ...{ payment_id: 'pay_1', account_id: 'acct_a', asset, holder: '0x52908400098527886E0F7030069857D2E4169EE7' },
        ...{ amount: '5', release_at: db.fn.now() },
      });
      const files = fs.readdirSync(migrationsDir).filter((f) => /^20261227090[0-2]00_/.test(f));
      expect(files).toHaveLength(3);
      for (const f of [...files].reverse())
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        await require(`${migrationsDir}/${f}`).down(db);
      const { rows } = await db.raw(`SELECT to_regclass('refund_reserves') AS t`);
      expect(rows[0].t).toBeNull();
      const cols = await db('accounts').columnInfo();
      expect(Object.keys(cols).filter((c) => c.startsWith('refund_reserve'))).toEqual([]);
      expect((await db('accounts').where({ id: 'acct_a' }).first('name')).name).toBe('acct_a');
    });
  });
});
