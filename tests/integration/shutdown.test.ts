import http from 'node:http';
import type { Socket } from 'node:net';
import { privateKeyToAccount } from 'viem/accounts';
import { createDb } from '../../src/db/knex';
import { admin, client, externalService } from '../support/service';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { spawnService } from '../support/serviceProcess';
import { eventually } from '../support/eventually';

// Graceful shutdown of the real built service process (node dist/src/main.js), as an orchestrator does
// it: SIGTERM while a long-poll waits, a request is half-sent, an idle keep-alive connection is open and
// chain work is queued (the test's last step shows it left in the queue). Needs its own process, so it skips against an external service (contract gate).

const ownServiceIt = externalService ? it.skip : it;
const buyer = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const DELAY_MS = 600; // SHUTDOWN_DELAY_MS: readiness fails this long before the listener closes
const usd = { unit: 'iso4217/USD', value: '1000' };

/** A plain GET on a new connection: its status, headers and body, or the connection error code. */
function getOnce(url: string): Promise<{ status?: number; headers?: http.IncomingHttpHeaders; body?: any; error?: string }> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', (e) => resolve({ error: (e as NodeJS.ErrnoException).code }));
  });
}

const until = <T>(f: () => Promise<T>, ok: (v: T) => boolean, ms = 5000) => eventually(f, ok, ms, 20);
const closedSocket = (s: Socket) => new Promise<void>((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())));

describe('graceful shutdown of the built service (SIGTERM)', () => {
  ownServiceIt('answers the long-poll, finishes in-flight work, refuses new connections, exits 0, loses nothing', async () => {
    const svc = await spawnService({ SHUTDOWN_DELAY_MS: String(DELAY_MS), CHAIN_CONFIRMATION_DELAY_MS: '2000', NODE_ENV: 'test' });
    const db = createDb(process.env.DATABASE_URL!, 2);
    try {
      const m = await merchantWithSettlement({ url: svc.url } as never, 'Shutdown');
      const wallet = await admin('keys', 'create', '--account', m.accountId, '--type', 'wallet');
      const gw = client(svc.url, { 'Api-Key': wallet.apiKey });
      const newPayment = async () => (await m.asMerchant('POST', '/v1/payments', { body: { referenceId: uniqueKey('sd'), amount: usd } })).body.paymentId as string;

      // 1. Chain work queued: a payment confirmed by the buyer (processing; its chain job runs after 2 s).
      const paid = await newPayment();
      const opts = await gw('POST', `/v1/gateway/payment/${paid}/options`, { body: { accounts: [`eip155:8453:${buyer.address}`] } });
      const opt = opts.body.options[0];
      const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
      const confirmed = await gw('POST', `/v1/gateway/payment/${paid}/confirm`, { body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] } });
      expect(confirmed.body.status).toBe('processing');

      // 2. A long-poll waiting (seen in the waiters gauge).
      const polled = await newPayment();
      const pollStarted = Date.now();
      const longPoll = m.asMerchant('GET', `/v1/payments/${polled}/status?maxPollMs=25000`);
      const waiters = async () => Number(/^paygate_longpoll_waiters (\d+)$/m.exec((await client(svc.url)('GET', '/metrics')).text)?.[1]);
      expect(await until(waiters, (n) => n === 1)).toBe(1);

      // 3. A request in flight: headers sent, body only half, on a keep-alive connection.
      const body = JSON.stringify({ referenceId: uniqueKey('inflight'), amount: usd });
      const idemKey = uniqueKey('idem');
      const req = http.request(`${svc.url}/v1/payments`, {
        method: 'POST', agent: new http.Agent({ keepAlive: true }),
        headers: { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId, 'Idempotency-Key': idemKey, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      });
      const response = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
        req.on('response', (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
        });
        req.on('error', reject);
      });
      const reqSocket = new Promise<Socket>((resolve) => req.on('socket', resolve));
      req.write(body.slice(0, 10));
      // 4. An idle keep-alive connection.
      const idleAgent = new http.Agent({ keepAlive: true });
      const idleSocket = await new Promise<Socket>((resolve, reject) => {
        const get = http.get(`${svc.url}/healthz`, { agent: idleAgent }, (res) => res.resume().on('end', () => resolve(get.socket!)));
        get.on('error', reject);
      });
      await new Promise((r) => setTimeout(r, 200)); // the half-sent request has reached the service

      const sigterm = Date.now();
      svc.proc.kill('SIGTERM');

      // Readiness fails at once while the listener still accepts (load balancers stop sending)...
      const ready = await until(() => getOnce(`${svc.url}/readyz`), (r) => r.status === 503, DELAY_MS);
      expect(ready).toMatchObject({ status: 503, body: { code: 'service_unavailable' }, headers: { connection: 'close' } });
      // ...then new connections are refused.
      expect(await until(() => getOnce(`${svc.url}/healthz`), (r) => r.error === 'ECONNREFUSED')).toEqual({ error: 'ECONNREFUSED' });
      await closedSocket(idleSocket); // the idle keep-alive connection was closed, not left to time out

      // The long-poll answers now with the current status instead of a reset connection.
      const lp = await longPoll;
      expect(lp.status).toBe(200);
      expect(lp.body).toMatchObject({ status: 'requires_action', isFinal: false });
      expect(Date.now() - pollStarted).toBeLessThan(10_000);

      // The in-flight request completes after the listener closed, and its connection closes after it.
      req.end(body.slice(10));
      const done = await response;
      expect(done.status).toBe(201);
      expect(done.headers.connection).toBe('close');
      await closedSocket(await reqSocket);

      const exit = await svc.exited;
      expect(exit.code).toBe(0);
      expect(exit.at - sigterm).toBeLessThan(DELAY_MS + 4000);
      const afterSignal = svc.logs.slice(svc.logs.findIndex((l) => l.msg.startsWith('shutting down')));
      expect(afterSignal.filter((l) => l.level >= 40)).toEqual([]); // no failed sweep, job or close
      expect(afterSignal.at(-1)!.msg).toBe('stopped');

      // Nothing half-written: the in-flight payment is stored with its event and its idempotency record.
      const created = done.body.paymentId as string;
      expect(await db('payment_events').where({ payment_id: created }).select('type', 'version')).toEqual([{ type: 'payment.created', version: 1 }]);
      expect(await db('idempotency_keys').where({ key: idemKey }).select('state', 'response_status')).toEqual([{ state: 'done', response_status: 201 }]);
      expect(await db('idempotency_keys').where({ scope: `account:${m.accountId}`, state: 'in_progress' }).count<{ n: string }[]>({ n: '*' })).toEqual([{ n: '0' }]);
      expect((await db('payments').where({ id: polled }).first()).status).toBe('requires_action');

      // The chain work stopped cleanly: the submission that ran finished, the confirmation job not yet due
      // stays queued (not active, not failed) for any other process; nothing was interrupted mid-job.
      expect((await db('payments').where({ id: paid }).first()).status).toBe('processing');
      expect(await db('chain_submissions').where({ payment_id: paid }).count<{ n: string }[]>({ n: '*' })).toEqual([{ n: '1' }]);
      const jobs = await db.raw("SELECT name, state FROM pgboss.job WHERE data->>'paymentId' = ? ORDER BY name", [paid]);
      expect(jobs.rows).toEqual([{ name: 'chain-confirm', state: 'created' }, { name: 'chain-submit', state: 'completed' }]);
    } finally {
      if (svc.proc.exitCode === null) svc.proc.kill('SIGKILL');
      await db.destroy();
    }
  }, 60_000); // the service process starts in seconds, slower on a loaded machine
});
