import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { verifyWebhook } from '../../clients/typescript/src/webhooks';
import { newBuyer, receiptOf } from '../support/chain';
import { eventually } from '../support/eventually';
import { adminWith, newKey } from '../support/service';
import { stoppablePostgres } from '../support/stoppablePostgres';
import { startReceiver, type Receiver } from '../support/webhookReceiver';
import { acknowledged, figures, gatewayPay, inPool, type Outcome, ownStack, partner, send, usdPayment } from './kit';

// The runbook of docs/backup.md, step by step, on the built service: a paid and settled payment, a webhook endpoint
// (its secret sealed with the data key), then pg_dump -Fc of the running instance's database while payments are
// being created; the instance stopped; the dump restored (createdb, pg_restore) into a fresh PostgreSQL cluster of
// its own; the service started on it with the same data key and relayer key. Every payment a client was told about
// before the dump began reads back as it was, the webhook secret still signs, and `admin ledger check` finds the
// restored books agreeing with the chain. Without the data key the sealed values do not open.

jest.setTimeout(150_000);

const run = promisify(execFile);
const PG_BIN = path.resolve(__dirname, '../../.tools/pg/bin');
const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };

/** pg_dump, pg_restore and createdb of the server's major version, where make pg-tools links them. */
function pgTool(name: string): string {
  const file = path.join(PG_BIN, name);
  if (!fs.existsSync(file))
    throw new Error(`${file} is missing: make test (or make test-faults, make pg-tools) installs PostgreSQL's client tools there`);
  return file;
}

describe('a backup of a running instance, restored into a fresh PostgreSQL', () => {
  it('brings back every payment, the webhook secret and books that agree with the chain', async () => {
    const [pgDump, pgRestore, createdb] = ['pg_dump', 'pg_restore', 'createdb'].map(pgTool);
    const dataKey = randomBytes(32).toString('hex');
    // Deliveries leased when the dump is taken are leased in the restored database too, until the lease runs out
    // (WEBHOOK_TIMEOUT_MS + WEBHOOK_LEASE_MARGIN_MS); four of them fill their endpoint's in-flight cap until then.
    // A margin of 1 s (instead of 30) keeps that wait short here.
    const stack = await ownStack('paygate_faults_backup', { DATA_ENCRYPTION_KEY: dataKey, WEBHOOK_LEASE_MARGIN_MS: '1000' });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-backup-'));
    let rx: Receiver | undefined;
    // The fresh cluster the dump is restored into, started meanwhile (its initdb takes a while on a loaded machine).
    const freshCluster = stoppablePostgres('paygate_restore_maint');
    freshCluster.catch(() => undefined); // awaited where the restore needs it
    try {
      rx = await startReceiver();
      const first = await stack.start();
      const shop = await partner(first.url, stack.dbUrl, 'Backup');
      const wallet = { 'Api-Key': (await newKey(shop.accountId, 'wallet', stack.dbUrl)).apiKey };
      const hook = await send(
        first.url,
        'POST',
        '/v1/webhook-endpoints',
        { 'Api-Key': shop.apiKey, ...PREVIEW, 'Idempotency-Key': 'backup-hook' },
        { url: rx.url, enabledEvents: ['payment.created'] },
      );
      expect(hook.status).toBe(201);

      // A USD 2.50 payment paid on chain, succeeded and settled: its read is what the restore must give back.
      const buyer = await newBuyer(2_500_000n);
      const paidId = await usdPayment(first.url, shop.headers, 'backup-paid', '250');
      expect((await gatewayPay(first.url, wallet, paidId, buyer)).status).toBe(200);
      const paid = await eventually(
        async () => (await send(first.url, 'GET', `/v1/payments/${paidId}`, shop.headers)).body,
        (p) => p?.status === 'succeeded' && p.settlement?.successful?.txId !== undefined,
        60_000,
        200,
      );
      expect(paid).toMatchObject({ status: 'succeeded', amount: { unit: 'iso4217/USD', value: '250' } });
      expect(paid.info).toMatchObject({ optionAmount: { value: '2500000' }, txId: expect.any(String) });
      expect(paid.settlement.successful).toEqual({ amount: { unit: expect.any(String), value: '2500000' }, txId: expect.any(String) });
      for (const tx of [paid.info.txId, paid.settlement.successful.txId]) expect((await receiptOf(tx)).status).toBe('success');

      // pg_dump of the running instance (custom format, no owners), begun once payments are being created.
      const dump = path.join(dir, 'paygate.dump');
      const created: (Outcome & { referenceId: string })[] = [];
      let dumpStartedAt = 0;
      let dumped: Promise<unknown> | undefined;
      let dumping = true;
      await inPool([1, 2], 2, async (worker) => {
        for (let i = 0; dumping && i < 100; i++) {
          const referenceId = `during-dump-${worker}-${i}`;
          const body = { referenceId, amount: { unit: 'iso4217/USD', value: '100' } };
          created.push({ ...(await send(first.url, 'POST', '/v1/payments', shop.headers, body)), referenceId });
          if (!dumped && created.length >= 4) {
            dumpStartedAt = Date.now();
            dumped = run(pgDump, ['-Fc', '--no-owner', '-f', dump, stack.dbUrl]).finally(() => (dumping = false));
            dumped.catch(() => undefined); // awaited below, once the writers stop
          }
        }
      });
      await dumped;
      const answered = created.filter(acknowledged);
      expect(answered.length).toBe(created.length);
      // The original instance is gone; nothing may run on the old database beside the restored one with the same keys.
      await first.kill('SIGTERM');

      // Into the fresh cluster: createdb, then pg_restore.
      const fresh = await freshCluster;
      await run(createdb, ['--maintenance-db', fresh.url, 'paygate_restored']);
      const restoredUrl = Object.assign(new URL(fresh.url), { pathname: '/paygate_restored' }).toString();
      await run(pgRestore, ['--no-owner', '--exit-on-error', '-d', restoredUrl, dump]);

      // The service on the restored database, with the same data key and relayer key (migrations run at start).
      const restored = await stack.start({ DATABASE_URL: restoredUrl });
      const read = (id: string) => send(restored.url, 'GET', `/v1/payments/${id}`, shop.headers);
      const again = await read(paidId);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(paid);
      // Every creation acknowledged before the dump began is there as it was answered; later ones may be or not.
      const before = answered.filter((o) => o.startedAt + o.ms < dumpStartedAt);
      let restoredCount = 0;
      for (const o of answered) {
        const r = await read(o.body.paymentId);
        if (r.status === 200) {
          restoredCount++;
          expect(r.body).toMatchObject({
            referenceId: o.referenceId,
            status: 'requires_action',
            amount: { unit: 'iso4217/USD', value: '100' },
          });
        } else {
          expect({ status: r.status, acknowledgedBeforeDump: before.includes(o) }).toEqual({ status: 404, acknowledgedBeforeDump: false });
        }
      }

      // The endpoint's secret (sealed with the data key) still signs: a new payment's event verifies with it.
      const next = await usdPayment(restored.url, shop.headers, 'after-restore', '100');
      const [event] = (await rx.until((all) => all.some((r) => r.body?.data?.payment?.paymentId === next), 30_000)).filter(
        (r) => r.body?.data?.payment?.paymentId === next,
      );
      expect(verifyWebhook(event.raw, event.headers, hook.body.secret as string).type).toBe('payment.created');

      // The restored books against the chain, with the service's environment.
      const check = await adminWith({ ...stack.env, DATABASE_URL: restoredUrl }, 'ledger', 'check');
      const { differences, negative } = check.out ?? {};
      expect({ code: check.code, differences, negative, stderr: check.code ? check.stderr : '' }).toEqual({
        code: 0,
        differences: [],
        negative: [],
        stderr: '',
      });
      // It compared the collector's holdings on the payment's chain (token and address pairs) with the chain's.
      expect(check.out.chains.find((c: { chainId: string }) => c.chainId === 'eip155:31337')?.holdings).toBeGreaterThanOrEqual(1);

      // Without the data key the sealed values (the endpoint's secret, its stored answer) do not open.
      const other = randomBytes(32).toString('hex');
      const wrongKey = await adminWith({ ...stack.env, DATABASE_URL: restoredUrl, DATA_ENCRYPTION_KEY: other }, 'keys', 'rotate-data');
      expect(wrongKey.code).toBe(1);
      expect(wrongKey.out.unreadable).toBeGreaterThanOrEqual(1);

      figures('backup-restore', {
        dumpBytes: fs.statSync(dump).size,
        createdDuringDump: created.length,
        acknowledgedBeforeDump: before.length,
        restored: restoredCount,
      });
    } finally {
      await stack.close();
      await (await freshCluster.catch(() => undefined))?.close();
      await rx?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
