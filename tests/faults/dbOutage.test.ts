import { generatePrivateKey } from 'viem/accounts';
import { createDb } from '../../src/db/knex';
import { spawnService, type ServiceProcess } from '../support/serviceProcess';
import { stoppablePostgres } from '../support/stoppablePostgres';
import { acknowledged, figures, inPool, partner, send, sendUntilAcknowledged, sleep, type Outcome } from './kit';

// PostgreSQL stopped for 10 s under load, under the built service as its own process: every answer in the
// outage is 503 service_unavailable with Retry-After (never a 500, never a dropped connection, the process
// lives on), answers are 200 again within 5 s of PostgreSQL accepting connections, and no write is lost or
// stored twice (writes refused with 503 are retried afterwards with their Idempotency-Key).

jest.setTimeout(150_000);

const OUTAGE_MS = 10_000;
const WORKERS = 4;
const BACK_WITHIN_MS = 5000; // the guarantee, counted from the moment PostgreSQL accepts connections again

interface Call extends Outcome {
  kind: 'read' | 'merchant' | 'payment';
  key?: string;
  body?: any;
  sent?: unknown;
  /** The answer to the retries with the same key, for a write first refused. */
  retry?: Outcome;
}

describe('PostgreSQL stopped for 10 s under load', () => {
  it('answers only 503 service_unavailable meanwhile, 200 within 5 s of its return, loses and duplicates nothing', async () => {
    const pg = await stoppablePostgres('paygate_faults_outage');
    const db = createDb(pg.url, 2);
    let svc: ServiceProcess | undefined;
    try {
      svc = await spawnService({
        DATABASE_URL: pg.url,
        DEVNET_RELAYER_KEYS: generatePrivateKey(),
        NODE_ENV: 'test',
        DB_ACQUIRE_TIMEOUT_MS: '2000',
      });
      const { url } = svc;
      const shop = await partner(url, pg.url, 'Outage');
      const run = Date.now().toString(36);
      let n = 0;
      const calls: Call[] = [];
      const one = async (): Promise<Call> => {
        const i = n++;
        if (i % 3 === 0) return { kind: 'read', ...(await send(url, 'GET', '/v1/merchants?limit=5', { 'Api-Key': shop.apiKey })) };
        const key = `${run}-${i}`;
        const [kind, path, sent] =
          i % 3 === 1
            ? ['merchant' as const, '/v1/merchants', { merchantName: key, merchantEmail: 'o@x.io' }]
            : ['payment' as const, '/v1/payments', { referenceId: key, amount: { unit: 'iso4217/USD', value: '100' } }];
        return { kind, key, sent, ...(await send(url, 'POST', path, { ...shop.headers, 'Idempotency-Key': key }, sent)) };
      };
      let stop = false;
      const load = Promise.all(
        Array.from({ length: WORKERS }, async () => {
          while (!stop) {
            calls.push(await one());
            await sleep(40); // a client pacing itself; 503s come back fast
          }
        }),
      );

      await sleep(2000);
      await pg.halt();
      const haltedAt = Date.now();
      await sleep(OUTAGE_MS);
      const resumeAsked = Date.now();
      await pg.resume();
      const backAt = Date.now(); // PostgreSQL accepts connections again
      // A probe, besides the load: the first 200 of a read sent after PostgreSQL is back.
      let firstOk: Outcome | undefined;
      while (!firstOk && Date.now() - backAt < 30_000) {
        const r = await send(url, 'GET', '/v1/merchants?limit=1', { 'Api-Key': shop.apiKey });
        if (r.status === 200) firstOk = r;
        else await sleep(50);
      }
      await sleep(2000);
      stop = true;
      await load;

      // The process never went away, and nothing but 2xx and 503 service_unavailable (with Retry-After) came back.
      expect(svc.proc.exitCode).toBeNull();
      const byStatus = (cs: Call[]) =>
        cs.reduce<Record<string, number>>((m, c) => ((m[c.status ?? c.error!] = (m[c.status ?? c.error!] ?? 0) + 1), m), {});
      const unexpected = calls.filter(
        (c) =>
          !acknowledged(c) && !(c.status === 503 && c.body?.code === 'service_unavailable' && Number(c.headers!.get('retry-after')) > 0),
      );
      expect(unexpected.map((c) => ({ kind: c.kind, status: c.status, error: c.error, body: c.body }))).toEqual([]);
      // Sent after the halt and answered before the restart began: all 503.
      const during = calls.filter((c) => c.startedAt >= haltedAt && c.startedAt + c.ms <= resumeAsked);
      expect(during.length).toBeGreaterThan(50);
      expect(byStatus(during)).toEqual({ 503: during.length });
      const outageLatency = [...during.map((c) => c.ms)].sort((a, b) => a - b);
      // Back to 200 within 5 s of PostgreSQL's return.
      expect(firstOk).toBeDefined();
      const backAfterMs = firstOk!.startedAt + firstOk!.ms - backAt;
      expect(backAfterMs).toBeLessThanOrEqual(BACK_WITHIN_MS);

      // Writes refused with 503 are retried with their key; then every key has exactly one row, the one acknowledged.
      const writes = calls.filter((c) => c.kind !== 'read');
      const retried = writes.filter((c) => !acknowledged(c));
      await inPool(retried, WORKERS, async (c) => {
        const path = c.kind === 'merchant' ? '/v1/merchants' : '/v1/payments';
        c.retry = await sendUntilAcknowledged(() => send(url, 'POST', path, { ...shop.headers, 'Idempotency-Key': c.key! }, c.sent));
      });
      expect(retried.filter((c) => !acknowledged(c.retry!)).map((c) => ({ status: c.retry!.status, body: c.retry!.body }))).toEqual([]);
      const replayed = retried.filter((c) => c.retry!.headers!.get('idempotent-replayed') === 'true').length;
      const check = async (kind: Call['kind'], table: string, column: string, idOf: (c: Call) => string) => {
        const ws = writes.filter((c) => c.kind === kind);
        const rows = await db(table)
          .whereIn(
            column,
            ws.map((c) => c.key!),
          )
          .select('id', `${column} as key`);
        expect(ws.map((c) => rows.filter((r) => r.key === c.key).map((r) => r.id))).toEqual(ws.map((c) => [idOf(c)]));
        return ws.length;
      };
      const merchants = await check('merchant', 'merchants', 'name', (c) => (c.retry ?? c).body.merchant.id);
      const payments = await check('payment', 'payments', 'reference_id', (c) => (c.retry ?? c).body.paymentId);

      figures('postgres-outage', {
        requests: calls.length,
        byStatus: byStatus(calls),
        duringOutage: { n: during.length, p50Ms: outageLatency[Math.floor(outageLatency.length / 2)], maxMs: outageLatency.at(-1) },
        outageMs: resumeAsked - haltedAt,
        restartPgMs: backAt - resumeAsked,
        back200AfterMs: backAfterMs,
        writes: { merchants, payments, refusedThenRetried: retried.length, replayedOnRetry: replayed },
        lost: 0,
        duplicated: 0,
        processAlive: true,
      });
    } finally {
      await db.destroy();
      await svc?.kill();
      await pg.close();
    }
  });
});
