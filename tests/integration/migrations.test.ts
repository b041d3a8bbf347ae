import fs from 'node:fs';
import { migrateLatest, migrationsDir } from '../../src/db/migrate';
import { createDb } from '../../src/db/knex';
import { externalService } from '../support/service';
import { freshDatabase } from '../support/freshDb';
import type { PaymentEvent, PaymentEventRecord } from '../../src/domain/paymentEvent';
import { renderEvent } from '../../src/wire/events';
import { findEvent } from '../../src/db/webhooksRepo';

const ownDbIt = externalService ? it.skip : it;

describe('migrations at start', () => {
  // Several processes starting at once on a fresh database: knex alone fails all but one of them
  // ("relation knex_migrations_lock already exists"); the advisory lock in migrateLatest serialises them.
  ownDbIt('are safe when several processes migrate the same fresh database at once', async () => {
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

describe('payment events become version-neutral (20261127090100_payment_events_version_neutral)', () => {
  // Events written before it hold the 2026-02-19.preview snapshot; after it, the neutral record that renders
  // to exactly the same JSON, and back again on rollback.
  const rendered = [
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

  ownDbIt('rewrites stored snapshots as records that render the same, and back on rollback', async () => {
    const file = fs.readdirSync(migrationsDir).find((f) => f.includes('payment_events_version_neutral'))!;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const migration = require(`${migrationsDir}/${file}`);
    const fresh = await freshDatabase('paygate_events');
    const db = createDb(fresh.url, 2);
    try {
      await db.raw('CREATE TABLE payment_events (id text PRIMARY KEY, data jsonb NOT NULL)');
      await db('payment_events').insert(rendered.map((d, i) => ({ id: `evt_${i}`, data: JSON.stringify(d) })));
      // A row in the old shape (as a process of the previous release may write during a rolling deploy) reads as a record.
      const readBefore = await Promise.all(rendered.map((_d, i) => findEvent(db, `evt_${i}`)));
      await migration.up(db);
      const records: PaymentEventRecord[] = (await db('payment_events').orderBy('id')).map((r) => r.data);
      expect(readBefore.map((e) => e!.record)).toEqual(records);
      expect(records[0]).toEqual({
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
      expect(records[1]).toMatchObject({
        currency: 'EUR',
        tokenAsset: 'eip155:31337/erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3',
        tokenAmount: '2500000',
      });
      records.forEach((record, i) => {
        const event: PaymentEvent = {
          id: `evt_${i}`,
          paymentId: record.paymentId,
          accountId: 'acct',
          type: 'payment.created',
          version: 1,
          record,
          createdAt: new Date(),
        };
        expect(renderEvent(event, '2026-02-19.preview').data.payment).toEqual(rendered[i]);
      });
      await migration.down(db);
      expect((await db('payment_events').orderBy('id')).map((r) => r.data)).toEqual(rendered);
    } finally {
      await db.destroy();
      await fresh.drop();
    }
  });
});
