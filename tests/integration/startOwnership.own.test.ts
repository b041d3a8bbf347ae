import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { devnetMint } from '../../src/chain/devnetTokens';
import { createDb } from '../../src/db/knex';
import { DEVNET_USDC, freePort, newWallet, USDC_TOKEN } from '../support/chain';
import { eventually } from '../support/eventually';
import { uniqueKey } from '../support/fixtures';
import { client, newAccount, newKey } from '../support/service';
import SERVICE_ENV from '../support/service-env.json';
import { spawnService, type ServiceProcess } from '../support/serviceProcess';

// `make start` owns what it uses (issue 46): a second checkout started on the same ports stops at once with a
// message naming the port, its holder and the setting that moves it, and leaves the first instance as it was; the
// embedded PostgreSQL and anvil run in process groups of their own, so a terminal's Ctrl-C (SIGINT to the
// service's process group) drains the service first (a waiting long-poll gets its normal answer), and they stop
// with the service when it is SIGKILLed. Each instance here is the built service with no DATABASE_URL and no
// DEVNET_RPC_URL, as `make start` runs it, on folders and ports of its own.

jest.setTimeout(300_000); // several service starts, each seconds to tens of seconds on a loaded machine

const root = path.resolve(__dirname, '../..');
const usd = { unit: 'iso4217/USD', value: '1000' };

/** A start that must fail: runs the built service to its exit. */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [path.join(root, 'dist/src/main.js')], {
      cwd: root,
      env: { ...process.env, ...SERVICE_ENV, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proc.stderr!.on('data', (c) => (stderr += c));
    proc.on('close', (code) => resolve({ code, stderr }));
  });
}

const rpc = async (port: number, method: string, params: unknown[] = []) => {
  const r = await fetch(`http://127.0.0.1:${port}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await r.json()) as { result: any }).result;
};
const answers = (port: number) =>
  fetch(`http://127.0.0.1:${port}`, { method: 'POST', signal: AbortSignal.timeout(2000) }).then(
    () => true,
    () => false,
  );
/** Whether anything accepts connections on the port (a PostgreSQL shutting down still does). */
const listens = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

interface Instance {
  dir: string;
  ports: { pg: number; devnet: number; devnet2: number; http: number };
}

async function instance(name: string): Promise<Instance> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `paygate-${name}-`));
  fs.chmodSync(dir, 0o755); // as root, PostgreSQL runs as its own user, which must reach its data folder
  return { dir, ports: { pg: await freePort(), devnet: await freePort(), devnet2: await freePort(), http: await freePort() } };
}

const envOf = (i: Instance, ports: Instance['ports'] = i.ports) => ({
  DATABASE_URL: '',
  EMBEDDED_PG_DIR: path.join(i.dir, 'pg'),
  EMBEDDED_PG_PORT: String(ports.pg),
  DEVNET_RPC_URL: '',
  DEVNET2_RPC_URL: '',
  DEVNET_DIR: path.join(i.dir, 'devnet'),
  DEVNET_PORT: String(ports.devnet),
  DEVNET2_PORT: String(ports.devnet2),
  DEVNET_RELAYER_KEYS: '',
  PORT: String(ports.http),
  NODE_ENV: 'development', // as `make start` runs it
});

describe('make start owns what it uses', () => {
  let first: Instance;
  let second: Instance;
  let svc: ServiceProcess | null = null;
  let pgUrl: string;
  let asMerchant: ReturnType<typeof client>;
  let paymentId: string;

  const start = async () => (svc = await spawnService(envOf(first), { group: true }));
  /** The first instance's data and chains, as a second start must leave them. */
  const snapshot = async () => {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    try {
      const payments = (await c.query('SELECT id, status, version FROM payments ORDER BY id')).rows;
      const databases = (await c.query('SELECT datname FROM pg_database ORDER BY datname')).rows;
      const migrations = (await c.query('SELECT count(*)::int AS n FROM knex_migrations')).rows[0].n;
      const chains = await Promise.all(
        [first.ports.devnet, first.ports.devnet2].map(async (p) => {
          const { instanceId, latestBlockNumber, latestBlockHash, chainId } = await rpc(p, 'anvil_metadata');
          return { instanceId, latestBlockNumber, latestBlockHash, chainId };
        }),
      );
      return { payments, databases, migrations, chains };
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    first = await instance('first');
    second = await instance('second');
    pgUrl = `postgres://postgres:paygate-local@127.0.0.1:${first.ports.pg}/paygate`;
    await start();
    const acct = await newAccount('Owner', pgUrl);
    const api = client(svc!.url, { 'Api-Key': acct.apiKey });
    const merchantId = (
      await api('POST', '/v1/merchants', {
        body: { merchantName: 'Owner', merchantEmail: 'm@x.io' },
        headers: { 'Idempotency-Key': uniqueKey() },
      })
    ).body.merchant.id as string;
    const settlement = await api('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
      body: { settlements: [{ asset: DEVNET_USDC, destination: `eip155:31337:${newWallet()}` }] },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    expect(settlement.status).toBe(201);
    asMerchant = client(svc!.url, { 'Api-Key': acct.apiKey, 'Merchant-Id': merchantId });
    const created = await asMerchant('POST', '/v1/payments', { body: { referenceId: uniqueKey('own'), amount: usd } });
    expect(created.status).toBe(201);
    paymentId = created.body.paymentId;
  });

  afterAll(async () => {
    await svc?.kill();
    for (const i of [first, second]) if (i) fs.rmSync(i.dir, { recursive: true, force: true });
  });

  it("a second checkout on the first one's ports exits non-zero naming the port, its holder and the setting; the first is untouched", async () => {
    // The first instance's own chains at rest: its depth mining has buried the deployment (3 deep), nothing moves.
    const quiet = async (port: number) => {
      const latest = Number(BigInt(await rpc(port, 'eth_blockNumber')));
      const blocks = await Promise.all([latest, latest - 1].map((n) => rpc(port, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])));
      return blocks.every((b) => b.transactions.length === 0);
    };
    for (const p of [first.ports.devnet, first.ports.devnet2]) expect(await eventually(() => quiet(p), Boolean, 30_000, 200)).toBe(true);
    const before = await snapshot();
    const own = second.ports;
    const taken = first.ports;
    const cases: [string, Instance['ports'], RegExp][] = [
      // The clone of the issue: every port the same. The database is checked first.
      ['every port', taken, new RegExp(`^EMBEDDED_PG_PORT ${taken.pg} is in use by another PostgreSQL \\(data folder ${first.dir}/pg\\)`)],
      ['the database port', { ...own, pg: taken.pg }, new RegExp(`^EMBEDDED_PG_PORT ${taken.pg} is in use by another PostgreSQL`)],
      [
        'the first chain port',
        { ...own, devnet: taken.devnet },
        new RegExp(
          `^DEVNET_PORT ${taken.devnet} is in use by an anvil \\(chain 31337\\) that this checkout did not start, pid \\d+ \\(\\S*anvil`,
        ),
      ],
      [
        'the second chain port',
        { ...own, devnet2: taken.devnet2 },
        new RegExp(`^DEVNET2_PORT ${taken.devnet2} is in use by an anvil \\(chain 31338\\)`),
      ],
      ['the HTTP port', { ...own, http: taken.http }, new RegExp(`^PORT ${taken.http} is in use by pid ${svc!.proc.pid} \\(`)],
    ];
    for (const [what, ports, message] of cases) {
      const r = await runToExit(envOf(second, ports));
      const lines = r.stderr.trim().split('\n');
      expect({ what, code: r.code, lines: lines.length }).toEqual({ what, code: 1, lines: 1 }); // one line, no stack
      const setting = /^(\w+) \d+/.exec(message.source.slice(1))![1];
      expect(lines[0]).toMatch(/^paygate failed to start: /);
      expect(lines[0].slice('paygate failed to start: '.length)).toMatch(message);
      expect(lines[0]).toMatch(new RegExp(`set ${setting} to a free port$`));
      // Nothing of the second checkout was started: no cluster initialised, no chain state written.
      expect(fs.readdirSync(second.dir)).toEqual([]);
    }
    // A port held by something that is no PostgreSQL: the first instance's HTTP port as the database port.
    const r = await runToExit(envOf(second, { ...own, pg: taken.http }));
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(
      new RegExp(
        `^paygate failed to start: EMBEDDED_PG_PORT ${taken.http} is in use by something that is not this checkout's PostgreSQL .*, pid ${svc!.proc.pid} \\(`,
      ),
    );

    expect(await snapshot()).toEqual(before);
    const read = await asMerchant('GET', `/v1/payments/${paymentId}`);
    expect({ status: read.status, payment: read.body.paymentId ?? read.body.id }).toEqual({ status: 200, payment: paymentId });
  });

  it("test helpers on make start's defaults: a paid test payment's reorg has its window, and the payment then succeeds by itself", async () => {
    // NODE_ENV development: DEVNET_CONFIRMATIONS 3, and an empty block 2 s after the head stopped moving while a
    // transaction is short of depth (DEVNET_DEPTH_MINING_S): nothing here mines.
    const acct = await newAccount('Helpers', pgUrl);
    const partner = await newKey(acct.accountId, 'partner', pgUrl, 'test');
    const api = client(svc!.url, { 'Api-Key': partner.apiKey, 'PAY-Version': '2026-02-19.preview' });
    const merchantId = (
      await api('POST', '/v1/merchants', {
        body: { merchantName: 'Helpers', merchantEmail: 'm@x.io' },
        headers: { 'Idempotency-Key': uniqueKey() },
      })
    ).body.merchant.id as string;
    const settled = await api('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
      body: { settlements: [{ asset: DEVNET_USDC, destination: `eip155:31337:${newWallet()}` }] },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    expect(settled.status).toBe(201);
    const shop = client(svc!.url, { 'Api-Key': partner.apiKey, 'Merchant-Id': merchantId, 'PAY-Version': '2026-02-19.preview' });
    const id = (await shop('POST', '/v1/payments', { body: { referenceId: uniqueKey('reorg'), amount: usd } })).body.paymentId as string;
    const buyer = privateKeyToAccount(generatePrivateKey());
    await devnetMint(`http://127.0.0.1:${first.ports.devnet}`, USDC_TOKEN, buyer.address, 100_000_000n);
    const gw = client(svc!.url, { 'Api-Key': (await newKey(acct.accountId, 'wallet', pgUrl, 'test')).apiKey });
    const opts = await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [`eip155:31337:${buyer.address}`] } });
    const opt = opts.body.options.find((o: any) => o.amount.unit === `caip19/${DEVNET_USDC}`);
    const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
    const confirmed = await gw('POST', `/v1/gateway/payment/${id}/confirm`, {
      body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] },
    });
    expect(confirmed.body.status).toBe('processing');
    const db = createDb(pgUrl, 2);
    try {
      const collect = () => db('chain_transactions').where({ payment_id: id, purpose: 'collect' }).first();
      const mined = await eventually(collect, (t) => t?.status === 'mined', 30_000, 20);
      expect(mined.status).toBe('mined');
      const reorg = await shop('POST', `/v1/test-helpers/payments/${id}/reorg`);
      expect({ status: reorg.status, body: reorg.body }).toMatchObject({ status: 200, body: { paymentId: id, status: 'processing' } });
      let status = (await shop('GET', `/v1/payments/${id}/status?maxPollMs=25000`)).body;
      for (let i = 0; i < 20 && !status.isFinal; i++) status = (await shop('GET', `/v1/payments/${id}/status?maxPollMs=25000`)).body;
      expect({ status: status.status, isFinal: status.isFinal }).toEqual({ status: 'succeeded', isFinal: true });
      const after = await collect();
      expect({ hash: after.tx_hash, moved: after.block_hash !== mined.block_hash }).toEqual({ hash: mined.tx_hash, moved: true });
      expect(await db('payment_events').where({ payment_id: id, type: 'payment.succeeded' })).toHaveLength(1);
    } finally {
      await db.destroy();
    }
  });

  it('SIGKILL of the service stops its PostgreSQL and chains; the next start of the same checkout has everything back', async () => {
    await svc!.kill('SIGKILL');
    const ports = [first.ports.devnet, first.ports.devnet2];
    const down = await eventually(
      async () => ({ pg: await listens(first.ports.pg), chains: await Promise.all(ports.map(answers)) }),
      (s) => !s.pg && !s.chains.some(Boolean),
      30_000,
    );
    expect(down).toEqual({ pg: false, chains: [false, false] });
    await start();
    const read = await asMerchant('GET', `/v1/payments/${paymentId}`);
    expect(read.status).toBe(200);
  });

  it("Ctrl-C (SIGINT to the service's process group) gives a waiting long-poll its answer, then stops PostgreSQL and the chains", async () => {
    const s = svc!;
    const url = s.url; // the same as the first start's: a fixed PORT
    const longPoll = asMerchant('GET', `/v1/payments/${paymentId}/status?maxPollMs=25000`);
    const waiters = async () => Number(/^paygate_longpoll_waiters (\d+)$/m.exec((await client(url)('GET', '/metrics')).text)?.[1]);
    expect(await eventually(waiters, (n) => n === 1, 10_000, 20)).toBe(1);

    process.kill(-s.proc.pid!, 'SIGINT'); // what a terminal sends on Ctrl-C: the whole foreground process group
    const answered = await longPoll;
    expect({ status: answered.status, payment: answered.body.status }).toEqual({ status: 200, payment: 'requires_action' });
    expect((await s.exited).code).toBe(0);
    expect(s.logs.some((l) => l.msg === 'stopped')).toBe(true);
    expect(await listens(first.ports.pg)).toBe(false);
    expect(await Promise.all([first.ports.devnet, first.ports.devnet2].map(answers))).toEqual([false, false]);
    // Each chain wrote its state on the way out, and its owner record went with it.
    expect(fs.readdirSync(path.join(first.dir, 'devnet')).sort()).toEqual(
      ['anvil-state-31338.json', 'anvil-state.json', 'devnet.json', 'relayer-keys.json'].sort(),
    );
  });
});
