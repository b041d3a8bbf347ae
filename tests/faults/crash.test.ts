import type { PrivateKeyAccount } from 'viem/accounts';
import { createDb } from '../../src/db/knex';
import { anvil, balanceOf, newBuyer } from '../support/chain';
import { eventually } from '../support/eventually';
import { newKey } from '../support/service';
import type { ServiceProcess } from '../support/serviceProcess';
import { acknowledged, figures, inPool, type Outcome, ownStack, partner, send, sendUntilAcknowledged } from './kit';

// SIGKILL under write load: a client that got a 2xx must find its write after the restart, and a client
// that got no answer retries with the same Idempotency-Key and gets exactly one resource. Merchants,
// payments and gateway confirms (which start chain work) are written at once; every write names its key
// in what it stores (the merchant's name, the payment's referenceId), so the rows per key can be counted.

jest.setTimeout(180_000); // two service processes, funded buyers and chain confirmations on a loaded machine

const MERCHANTS = 120;
const PAYMENTS = 150;
const CONFIRMS = 16;
const CONCURRENCY = 12;
const KILL_AFTER_ACKS = 110; // well into the load, with requests in flight

interface Write {
  kind: 'merchant' | 'payment' | 'confirm';
  key: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** The payment a confirm pays. */
  paymentId?: string;
  buyer?: PrivateKeyAccount;
  first?: Outcome;
  final?: Outcome & { tries: number };
}

describe('a service process killed (SIGKILL) under write load', () => {
  it('every acknowledged write is there after the restart; retried with its key, none is stored twice', async () => {
    const stack = await ownStack('paygate_faults_crash');
    const db = createDb(stack.dbUrl, 2);
    try {
      let svc: ServiceProcess = await stack.start();
      const shop = await partner(svc.url, stack.dbUrl, 'Crash');
      const wallet = await newKey(shop.accountId, 'wallet', stack.dbUrl);
      const run = Date.now().toString(36);

      // Payments ready to confirm: funded buyers, their options, their signatures.
      const buyers = await Promise.all(Array.from({ length: CONFIRMS }, () => newBuyer(10_000_000n)));
      const confirms: Write[] = [];
      for (const [i, buyer] of buyers.entries()) {
        const pay = await send(svc.url, 'POST', '/v1/payments', shop.headers, {
          referenceId: `${run}-topay-${i}`,
          amount: { unit: 'iso4217/USD', value: '1000' },
        });
        const id = pay.body.paymentId as string;
        const opts = await send(
          svc.url,
          'POST',
          `/v1/gateway/payment/${id}/options`,
          { 'Api-Key': wallet.apiKey },
          { accounts: [`eip155:31337:${buyer.address}`] },
        );
        const opt = opts.body.options[0];
        const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
        confirms.push({
          kind: 'confirm',
          key: `${run}-c-${i}`,
          path: `/v1/gateway/payment/${id}/confirm`,
          paymentId: id,
          buyer,
          headers: { 'Api-Key': wallet.apiKey },
          body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] },
        });
      }
      const merchants: Write[] = Array.from({ length: MERCHANTS }, (_, i) => ({
        kind: 'merchant',
        key: `${run}-m-${i}`,
        path: '/v1/merchants',
        headers: { 'Api-Key': shop.apiKey },
        body: { merchantName: `${run}-m-${i}`, merchantEmail: 'k@x.io' },
      }));
      const payments: Write[] = Array.from({ length: PAYMENTS }, (_, i) => ({
        kind: 'payment',
        key: `${run}-p-${i}`,
        path: '/v1/payments',
        headers: shop.headers,
        body: { referenceId: `${run}-p-${i}`, amount: { unit: 'iso4217/USD', value: '250' } },
      }));
      // The three kinds spread evenly through the load.
      const spread = (ws: Write[]) => ws.map((w, j) => ({ w, at: (j + 0.5) / ws.length }));
      const writes = [...spread(merchants), ...spread(payments), ...spread(confirms)].sort((a, b) => a.at - b.at).map((x) => x.w);
      expect(writes).toHaveLength(MERCHANTS + PAYMENTS + CONFIRMS);

      // The load; the process is killed once KILL_AFTER_ACKS writes were acknowledged.
      const crashed = svc;
      let acks = 0;
      let inFlightAtKill = 0;
      let inFlight = 0;
      let killed: Promise<void> | null = null;
      const loadStarted = Date.now();
      await inPool(writes, CONCURRENCY, async (w) => {
        inFlight++;
        w.first = await send(crashed.url, 'POST', w.path, { ...w.headers, 'Idempotency-Key': w.key }, w.body);
        inFlight--;
        if (acknowledged(w.first) && ++acks === KILL_AFTER_ACKS) {
          inFlightAtKill = inFlight;
          killed = crashed.kill('SIGKILL');
        }
      });
      await killed;
      const loadMs = Date.now() - loadStarted;
      const unacked = writes.filter((w) => !acknowledged(w.first!));
      // Before the kill a write is acknowledged (or, on a starved machine, 503: retry); after it, no answer at all.
      expect(
        unacked
          .filter((w) => w.first!.status !== undefined && w.first!.status !== 503)
          .map((w) => ({ status: w.first!.status, body: w.first!.body })),
      ).toEqual([]);

      const restartAt = Date.now();
      svc = await stack.start();
      const restartMs = Date.now() - restartAt;
      await inPool(unacked, CONCURRENCY, async (w) => {
        w.final = await sendUntilAcknowledged(() => send(svc.url, 'POST', w.path, { ...w.headers, 'Idempotency-Key': w.key }, w.body));
      });
      expect(
        unacked.filter((w) => !acknowledged(w.final!)).map((w) => ({ key: w.key, status: w.final!.status, body: w.final!.body })),
      ).toEqual([]);
      const replayed = unacked.filter((w) => w.final!.headers!.get('idempotent-replayed') === 'true');
      for (const w of writes) if (acknowledged(w.first!)) w.final = { ...w.first!, tries: 1 };

      // Exactly one row per key, and it is the one the client was told about.
      const idOf = (w: Write) =>
        w.kind === 'merchant' ? w.final!.body.merchant.id : w.kind === 'payment' ? w.final!.body.paymentId : w.paymentId;
      const stored = async (table: string, column: string, ws: Write[]) => {
        const rows = await db(table)
          .whereIn(
            column,
            ws.map((w) => w.key),
          )
          .select('id', `${column} as key`);
        return ws.map((w) => rows.filter((r) => r.key === w.key).map((r) => r.id));
      };
      expect(await stored('merchants', 'name', merchants)).toEqual(merchants.map((w) => [idOf(w)]));
      expect(await stored('payments', 'reference_id', payments)).toEqual(payments.map((w) => [idOf(w)]));
      expect(await db('payment_events').whereIn('payment_id', payments.map(idOf)).count<{ n: string }[]>({ n: '*' })).toEqual([
        { n: String(PAYMENTS) },
      ]);

      // Every confirm paid once: one transfer per payment on chain, each buyer's funds moved exactly once.
      const confirmedIds = confirms.map((w) => w.paymentId!);
      expect(confirms.map((w) => w.final!.body.status)).toEqual(confirms.map(() => expect.stringMatching(/^(processing|succeeded)$/)));
      const done = await eventually(
        async () => {
          await anvil().mine({ blocks: 1 });
          return db('payments').whereIn('id', confirmedIds).select('id', 'status');
        },
        (rows) => rows.every((p) => p.status === 'succeeded'),
        60_000,
        300,
      );
      expect(done.map((p) => p.status)).toEqual(confirmedIds.map(() => 'succeeded'));
      const collects = await db('chain_transactions')
        .whereIn('payment_id', confirmedIds)
        .where({ purpose: 'collect' })
        .select('payment_id');
      expect(collects.map((c) => c.payment_id).sort()).toEqual([...confirmedIds].sort());
      expect(await Promise.all(confirms.map((w) => balanceOf(w.buyer!.address)))).toEqual(confirms.map(() => 0n));
      const processing = await db('payment_events')
        .whereIn('payment_id', confirmedIds)
        .where({ type: 'payment.processing' })
        .count<{ n: string }[]>({ n: '*' });
      expect(processing).toEqual([{ n: String(CONFIRMS) }]);

      const perKind = (ws: Write[]) =>
        Object.fromEntries(['merchant', 'payment', 'confirm'].map((k) => [k, ws.filter((w) => w.kind === k).length]));
      figures('sigkill', {
        writes: writes.length,
        acknowledgedBeforeKill: writes.length - unacked.length,
        inFlightAtKill,
        loadMs,
        unacknowledged: perKind(unacked),
        restartMs,
        afterRestart: {
          replayed: replayed.length,
          ranNow: unacked.length - replayed.length,
          maxTries: Math.max(0, ...unacked.map((w) => w.final!.tries)),
        },
        lost: 0,
        duplicated: 0,
        confirmsSucceeded: done.length,
      });
    } finally {
      await db.destroy();
      await stack.close();
    }
  });
});
