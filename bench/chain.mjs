// On-chain payment benchmark (not a test; make bench-chain): real payments through the HTTP API on anvil
// with Circle's FiatToken v2.2 USDC (buyers sign ReceiveWithAuthorization, the relayer submits, the
// monitor confirms, the settlement transfer pays the merchant). Each figure has a baseline measured in
// the same run on the same anvil: what the chain alone allows.
//   1. latency: confirm response -> status long-poll answers `succeeded`, anvil --block-time 1, depth 1,
//      monitor tick 100 ms; baseline: eth_sendRawTransaction of an ERC-20 transfer -> receipt available.
//   2. throughput: settled payments per second on ONE relayer key, anvil with automine; baseline: the same
//      number of ERC-20 transfers from one key with locally allocated nonces. Checked from the database
//      and the chain: no nonce gap, no duplicate submission. Where the time went, per stage, from the
//      timestamps of chain_transactions.
// Run: make bench-chain   (BENCH_CHAIN_LATENCY_N=40, BENCH_CHAIN_N=200, BENCH_CHAIN_CONCURRENCY=20,
//      BENCH_CHAIN_POLL_MS=1000: the monitor tick of part 2, the service's default;
//      BENCH_CHAIN_PROFILE=1: in part 2, the service's RPC calls through a counting proxy, its database
//      sessions sampled every 10 ms (what they wait on), and a CPU profile of the service process;
//      BENCH_CHAIN_STATEMENTS=20: how many of the most frequent SQL statements the profile lists)
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { createPublicClient, encodeFunctionData, getAddress, http as viemHttp, parseAbi } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { fmt, freePort, node, root, startChild, startPostgres, stopChild } from './lib.mjs';

const LAT_N = Number(process.env.BENCH_CHAIN_LATENCY_N || 40);
const LAT_CONCURRENCY = 4;
const N = Number(process.env.BENCH_CHAIN_N || 200);
const CONCURRENCY = Number(process.env.BENCH_CHAIN_CONCURRENCY || 20);
const POLL_MS = String(process.env.BENCH_CHAIN_POLL_MS || 1000);
const PROFILE = process.env.BENCH_CHAIN_PROFILE === '1';
const AMOUNT = '100'; // USD 1.00 -> 1_000_000 USDC units

const devnet = {
  ...(await import(path.join(root, 'dist/src/chain/devnet.js'))),
  ...(await import(path.join(root, 'dist/src/chain/devnetTokens.js'))),
  ...(await import(path.join(root, 'dist/src/chain/anvil.js'))),
};
const USDC = devnet.devnetTokenAddress('USDC');
/** Part 3 pays with Permit2 (issue 29): the devnet's Tether-like USDT, approved by each buyer before the run. */
const PERMIT2_TOKEN = 'USDT';
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const ERC20 = parseAbi([
  'function transfer(address to, uint256 value) returns (bool)',
  'function mint(address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 value)',
]);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Runs `work(i)` for i in 0..n-1, at most `c` at a time. */
async function pool(n, c, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, c) }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

async function rpc(url, method, params = []) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await r.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/**
 * A key that sends with locally allocated nonces (what the baselines and the funding use): each send signs
 * the next nonce and hands the raw bytes to eth_sendRawTransaction; nothing waits for the chain.
 */
async function localSender(rpcUrl, account) {
  const pub = createPublicClient({ chain: devnet.devnetChain(rpcUrl), transport: viemHttp(rpcUrl) });
  let nonce = await pub.getTransactionCount({ address: account.address, blockTag: 'pending' });
  const fees = await pub.estimateFeesPerGas();
  const maxFeePerGas = fees.maxFeePerGas * 4n; // headroom for base-fee swings while many blocks are made
  return {
    pub,
    async send(to, data, gas = 120_000n) {
      const raw = await account.signTransaction({
        type: 'eip1559',
        chainId: devnet.DEVNET_CHAIN_ID,
        nonce: nonce++,
        to,
        data,
        gas,
        value: 0n,
        maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      return rpc(rpcUrl, 'eth_sendRawTransaction', [raw]);
    },
  };
}

async function waitReceipt(rpcUrl, hash, everyMs = 10, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await rpc(rpcUrl, 'eth_getTransactionReceipt', [hash]);
    if (r) return r;
    if (Date.now() > until) throw new Error(`no receipt for ${hash}`);
    await sleep(everyMs);
  }
}

/** Mints a devnet token (USDC by default) to every address (deployer, local nonces), then waits for the last mint. */
async function mintAll(rpcUrl, addresses, amount, symbol = 'USDC') {
  const token = devnet.devnetTokenAddress(symbol);
  // Tether issues to its owner only: the total is issued to the deployer once, then transferred.
  const tether = symbol === PERMIT2_TOKEN;
  if (tether) await devnet.devnetMint(rpcUrl, token, devnet.devnetDeployer.address, amount * BigInt(addresses.length));
  const s = await localSender(rpcUrl, devnet.devnetDeployer);
  let last;
  for (const a of addresses)
    last = await s.send(
      token,
      encodeFunctionData({ abi: ERC20, functionName: tether ? 'transfer' : 'mint', args: [getAddress(a), amount] }),
    );
  const r = await waitReceipt(rpcUrl, last, 20, 60_000);
  if (r.status !== '0x1') throw new Error('mint reverted');
}

/** A funded key for the baselines: gas and USDC. */
async function fundedKey(rpcUrl) {
  const account = privateKeyToAccount(generatePrivateKey());
  await devnet.devnetSetBalance(rpcUrl, account.address);
  await mintAll(rpcUrl, [account.address], 10n ** 15n);
  return account;
}
const transferData = () =>
  encodeFunctionData({ abi: ERC20, functionName: 'transfer', args: [privateKeyToAccount(generatePrivateKey()).address, 1n] });

/** Profiling: an HTTP proxy in front of anvil counting the JSON-RPC calls per method, their batches and time. */
async function rpcProxy(target) {
  const stats = new Map();
  const stat = (k) => stats.get(k) ?? stats.set(k, { calls: 0, ms: 0 }).get(k);
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString();
      const msgs = [JSON.parse(body)].flat();
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      const t0 = performance.now();
      let r;
      let text;
      try {
        r = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        text = await r.text();
      } catch (e) {
        r = { status: 502 };
        text = String(e);
      } finally {
        inFlight--;
      }
      const dt = performance.now() - t0;
      const h = stat(msgs.length > 1 ? '(HTTP requests carrying a batch)' : '(HTTP requests carrying one call)');
      h.calls++;
      h.ms += dt;
      if (msgs.length > 1) stat('(calls inside batches)').calls += msgs.length;
      for (const m of msgs) {
        const s = stat(m.method);
        s.calls++;
        s.ms += dt;
      }
      res.writeHead(r.status, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    reset: () => {
      stats.clear();
      maxInFlight = 0;
    },
    report: () => ({ maxInFlight, stats: [...stats.entries()].sort((a, b) => b[1].ms - a[1].ms) }),
    close: () => new Promise((r) => server.close(r)),
  };
}

/** Profiling: the service's database sessions every 10 ms, counted by state and wait event. */
function sampleSessions(db, dbName) {
  const counts = new Map();
  let samples = 0;
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const { rows } = await db.raw(
        `SELECT state, coalesce(wait_event_type || ':' || wait_event, 'on cpu / in flight') AS w FROM pg_stat_activity
         WHERE datname = ? AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
        [dbName],
      );
      samples++;
      for (const r of rows) counts.set(`${r.state} ${r.w}`, (counts.get(`${r.state} ${r.w}`) || 0) + 1);
      await sleep(10);
    }
  })();
  return async () => {
    stopped = true;
    await done;
    return { samples, sessions: [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, n / samples]) };
  };
}

/**
 * CPU seconds used so far by this process and its descendants (the service, anvil, PostgreSQL and its
 * backends), by kind, from /proc (Linux; empty elsewhere). Two readings bracket a run: the machine's
 * cores are shared, so what a payment costs in CPU says what rate the machine can reach.
 */
function cpuByKind() {
  const kinds = {};
  let procs;
  try {
    procs = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return kinds;
  }
  const hz = 100; // USER_HZ: clock ticks per second in /proc/<pid>/stat on Linux
  const info = new Map();
  for (const pid of procs) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      info.set(pid, { ppid: f[1], ticks: Number(f[11]) + Number(f[12]), cmd });
    } catch {
      /* gone */
    }
  }
  const ours = new Set([String(process.pid)]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, x] of info)
      if (!ours.has(pid) && ours.has(x.ppid)) {
        ours.add(pid);
        grew = true;
      }
  }
  for (const pid of ours) {
    const x = info.get(pid);
    if (!x) continue;
    const kind = /anvil/.test(x.cmd)
      ? 'anvil'
      : /main\.js/.test(x.cmd)
        ? 'service'
        : /postgres/.test(x.cmd)
          ? 'postgres'
          : pid === String(process.pid)
            ? 'bench'
            : 'other';
    kinds[kind] = (kinds[kind] || 0) + x.ticks / hz;
  }
  return kinds;
}

/** Profiling: the functions with the most self time in a V8 CPU profile (by script and line), within a time window. */
function topSelfTime(file, [from, to], n = 25) {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((x) => [x.id, x]));
  const self = new Map();
  const dts = prof.timeDeltas;
  let at = BigInt(prof.startTime);
  for (let i = 0; i < prof.samples.length; i++) {
    at += BigInt(dts[i] || 0);
    if (at < from || at > to) continue; // only the measured window
    const f = byId.get(prof.samples[i]).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(root, '')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) || 0) + (dts[i] || 0) / 1000);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  return { totalMs: total, top: [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, n) };
}

/** The service on `dbUrl`, attached to the anvil at `rpcUrl` with one relayer key; an account, a merchant settling USDC, a wallet key. */
async function startService(pg, dbName, rpcUrl, relayerKey, extraEnv, childOpts = {}, symbol = 'USDC') {
  const asset = devnet.devnetAssetId(symbol);
  const url = await newDatabase(pg.url, dbName);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-devnet-'));
  const env = {
    DATABASE_URL: url,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    // production would disable the devnet; development with response validation off is the closest
    NODE_ENV: 'development',
    VALIDATE_RESPONSES: 'false',
    DATA_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
    DEVNET_RPC_URL: rpcUrl,
    DEVNET_DIR: dir,
    DEVNET_CONFIRMATIONS: '1',
    DEVNET_RELAYER_KEYS: relayerKey,
    QUOTE_TTL_SECONDS: '1800',
    PAYMENT_TTL_SECONDS: '3600',
    ...extraEnv,
  };
  let child;
  let acct;
  let wallet;
  try {
    node('dist/src/cli/migrate.js', env);
    acct = JSON.parse(node('dist/src/cli/admin.js', env, ['accounts', 'create', '--name', 'Bench']));
    wallet = JSON.parse(node('dist/src/cli/admin.js', env, ['keys', 'create', '--account', acct.accountId, '--type', 'wallet']));
    child = await startChild('dist/src/main.js', env, `http://127.0.0.1:${port}/readyz`, childOpts);
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const base = `http://127.0.0.1:${port}`;
  const call = async (method, p, key, b, headers = {}) => {
    const r = await fetch(base + p, {
      method,
      body: b && JSON.stringify(b),
      headers: { 'content-type': 'application/json', 'Api-Key': key, ...headers },
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${text}`);
    return JSON.parse(text);
  };
  const merchantWallet = privateKeyToAccount(generatePrivateKey()).address;
  const m = await call(
    'POST',
    '/v1/merchants',
    acct.apiKey,
    { merchantName: 'Bench', merchantEmail: 'bench@example.com' },
    { 'Idempotency-Key': 'bench-m' },
  );
  const merchantId = m.merchant.id;
  await call(
    'POST',
    `/v1/merchants/${merchantId}/settlements/crypto`,
    acct.apiKey,
    { settlements: [{ asset, destination: `eip155:31337:${merchantWallet}` }] },
    { 'Idempotency-Key': 'bench-s' },
  );
  const db = knex({ client: 'pg', connection: url, pool: { min: 0, max: 2 } });
  const svc = {
    child,
    db,
    dbName,
    merchantWallet,
    merchant: (method, p, b) => call(method, p, acct.apiKey, b, { 'Merchant-Id': merchantId }),
    gateway: (method, p, b) => call(method, p, wallet.apiKey, b),
    /** A payment, its first option for `buyer`, and the buyer's signature: everything a confirm needs. */
    async prepare(buyer, ref) {
      const { paymentId } = await svc.merchant('POST', '/v1/payments', {
        referenceId: ref,
        amount: { unit: 'iso4217/USD', value: AMOUNT },
      });
      const { options } = await svc.gateway('POST', `/v1/gateway/payment/${paymentId}/options`, {
        accounts: [`eip155:31337:${buyer.address}`],
      });
      const opt = options.find((o) => o.amount.unit === `caip19/${asset}`);
      // The last action is the signature (a Permit2 buyer approved Permit2 before: no approve action then).
      if (opt.actions.length !== 1) throw new Error(`option ${opt.id}: ${opt.actions.length} actions`);
      const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
      return { paymentId, optionId: opt.id, sig };
    },
    confirm: (p) =>
      svc.gateway('POST', `/v1/gateway/payment/${p.paymentId}/confirm`, {
        optionId: p.optionId,
        results: [{ type: 'walletRpc', data: [p.sig] }],
      }),
    async stop() {
      await db.destroy();
      await stopChild(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return svc;
}

/** One cluster, one database per part (each part has its own anvil, and nonces are stored per chain id). */
async function newDatabase(clusterUrl, name) {
  const admin = knex({ client: 'pg', connection: clusterUrl, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`CREATE DATABASE ${name}`);
  } finally {
    await admin.destroy();
  }
  const u = new URL(clusterUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Buyers holding 10 units of the token; for Permit2, each with gas and its approve of Permit2 mined (not timed). */
async function newBuyers(rpcUrl, n, symbol = 'USDC') {
  const buyers = Array.from({ length: n }, () => privateKeyToAccount(generatePrivateKey()));
  await mintAll(
    rpcUrl,
    buyers.map((b) => b.address),
    10_000_000n,
    symbol,
  );
  if (symbol !== PERMIT2_TOKEN) return buyers;
  const approve = encodeFunctionData({ abi: ERC20, functionName: 'approve', args: [PERMIT2, 2n ** 256n - 1n] });
  await pool(n, 20, async (i) => {
    await devnet.devnetSetBalance(rpcUrl, buyers[i].address);
    const r = await waitReceipt(rpcUrl, await (await localSender(rpcUrl, buyers[i])).send(devnet.devnetTokenAddress(symbol), approve));
    if (r.status !== '0x1') throw new Error('approve reverted');
  });
  return buyers;
}

/** Mean gas used by the receipts of `hashes`. */
async function meanGas(rpcUrl, hashes) {
  const rs = await Promise.all(hashes.map((h) => rpc(rpcUrl, 'eth_getTransactionReceipt', [h])));
  return rs.reduce((a, r) => a + Number(BigInt(r.gasUsed)), 0) / Math.max(1, rs.length);
}

/** Part 1: latency to `succeeded` with one-second blocks. */
async function latency(pg) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-anvil-'));
  const chain = await devnet.startDevnetChain({ dir, port: await freePort(), blockTimeS: 1 });
  let svc;
  try {
    // Baseline: transfer signed here, sent, receipt polled every 10 ms; the same concurrency as the payments.
    const key = await fundedKey(chain.rpcUrl);
    const s = await localSender(chain.rpcUrl, key);
    const base = [];
    await pool(LAT_N, LAT_CONCURRENCY, async () => {
      await sleep(Math.random() * 1000); // a random phase against the block clock, as for the payments
      const t0 = performance.now();
      const hash = await s.send(USDC, transferData());
      const r = await waitReceipt(chain.rpcUrl, hash);
      base.push(performance.now() - t0);
      if (r.status !== '0x1') throw new Error('baseline transfer reverted');
    });

    svc = await startService(pg, 'paygate_bench_latency', chain.rpcUrl, generatePrivateKey(), { CHAIN_POLL_INTERVAL_MS: '100' });
    const buyers = await newBuyers(chain.rpcUrl, LAT_N);
    const prepared = [];
    for (const [i, b] of buyers.entries()) prepared.push(await svc.prepare(b, `lat${i}`));
    const ours = [];
    const confirmMs = [];
    const confirmedAt = new Map();
    const answeredAt = new Map();
    await pool(LAT_N, LAT_CONCURRENCY, async (i) => {
      const p = prepared[i];
      await sleep(Math.random() * 1000);
      const c0 = performance.now();
      const c = await svc.confirm(p);
      const t0 = performance.now();
      confirmMs.push(t0 - c0);
      if (c.status !== 'processing' && c.status !== 'succeeded') throw new Error(`confirm answered ${c.status}`);
      for (let status = c.status; status !== 'succeeded';) {
        const r = await svc.gateway('GET', `/v1/gateway/payment/${p.paymentId}/status?maxPollMs=10000`);
        status = r.status;
        if (r.isFinal && status !== 'succeeded') throw new Error(`payment ${p.paymentId} ended ${status}`);
        if (performance.now() - t0 > 60_000) throw new Error(`payment ${p.paymentId} not succeeded after 60 s`);
      }
      ours.push(performance.now() - t0);
      answeredAt.set(p.paymentId, Date.now());
      confirmedAt.set(p.paymentId, Date.now() - (performance.now() - t0));
    });
    // Where the time went, from the collect transactions' timestamps.
    const stages = {
      'confirm -> collect signed (submit job)': [],
      'collect signed -> broadcast': [],
      'broadcast -> final (block + monitor)': [],
      'final -> long-poll answered': [],
    };
    const ms = (d) => new Date(d).getTime();
    for (const t of await svc.db('chain_transactions').where({ purpose: 'collect' }).whereNot('status', 'dropped')) {
      if (!answeredAt.has(t.payment_id)) continue;
      const v = Object.values(stages);
      v[0].push(ms(t.signed_at) - confirmedAt.get(t.payment_id));
      v[1].push(ms(t.broadcast_at) - ms(t.signed_at));
      v[2].push(ms(t.finished_at) - ms(t.broadcast_at));
      v[3].push(answeredAt.get(t.payment_id) - ms(t.finished_at));
    }
    return { base, ours, confirmMs, stages };
  } finally {
    if (svc) await svc.stop();
    await chain.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Part 2 (and 3, with `symbol` USDT: Permit2): settled payments per second on one relayer key, automine. */
async function throughput(pg, symbol = 'USDC') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-anvil-'));
  const chain = await devnet.startDevnetChain({ dir, port: await freePort() });
  let svc;
  let proxy = null;
  try {
    // Baseline: N transfers from one key, nonces allocated here, CONCURRENCY sends in flight, until the
    // chain has them all.
    const key = await fundedKey(chain.rpcUrl);
    const s = await localSender(chain.rpcUrl, key);
    const start = await s.pub.getTransactionCount({ address: key.address });
    const hashes = [];
    const b0 = performance.now();
    await pool(N, CONCURRENCY, async () => hashes.push(await s.send(USDC, transferData())));
    // (With a deadline: a transfer the chain dropped would otherwise leave this wait, and the bench, hanging.)
    const baseDeadline = Date.now() + 180_000;
    for (let mined; (mined = (await s.pub.getTransactionCount({ address: key.address })) - start) < N; await sleep(5))
      if (Date.now() > baseDeadline) throw new Error(`baseline: the chain mined ${mined} of ${N} transfers in 180 s`);
    const baseRate = N / ((performance.now() - b0) / 1000);
    const baseOk = (await Promise.all(hashes.map((h) => rpc(chain.rpcUrl, 'eth_getTransactionReceipt', [h])))).filter(
      (r) => r?.status === '0x1',
    ).length;

    const relayerKey = generatePrivateKey();
    const relayer = privateKeyToAccount(relayerKey).address;
    proxy = PROFILE ? await rpcProxy(chain.rpcUrl) : null;
    const profDir = PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-cpuprof-')) : null;
    svc = await startService(
      pg,
      `paygate_bench_throughput_${symbol.toLowerCase()}`,
      proxy?.url ?? chain.rpcUrl,
      relayerKey,
      { CHAIN_POLL_INTERVAL_MS: POLL_MS },
      PROFILE ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`], stdout: fs.openSync(path.join(profDir, 'service.log'), 'w') } : {},
      symbol,
    );
    const buyers = await newBuyers(chain.rpcUrl, N, symbol);
    const prepared = [];
    await pool(N, 10, async (i) => prepared.push(await svc.prepare(buyers[i], `tp${i}`)));
    const ids = prepared.map((p) => p.paymentId);
    const nonceBefore = await s.pub.getTransactionCount({ address: relayer });
    const xacts = async () =>
      Number(
        (await svc.db.raw('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0].n,
      );
    const xactsBefore = await xacts();
    proxy?.reset();
    if (PROFILE) {
      await svc.db.raw('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      await svc.db.raw('SELECT pg_stat_statements_reset()');
    }
    const stopSampling = PROFILE ? sampleSessions(svc.db, svc.dbName) : null;

    const confirmedAt = new Map();
    const cpu0 = cpuByKind();
    const t0 = performance.now();
    const wall0 = Date.now();
    const mono0 = process.hrtime.bigint() / 1000n; // V8 profiles count CLOCK_MONOTONIC microseconds too
    const confirming = pool(N, CONCURRENCY, async (i) => {
      const c = await svc.confirm(prepared[i]);
      if (c.status !== 'processing' && c.status !== 'succeeded') throw new Error(`confirm answered ${c.status}`);
      confirmedAt.set(prepared[i].paymentId, Date.now());
    });
    let confirmsDone = null;
    confirming.then(() => {
      confirmsDone = performance.now();
    });
    let succeededAt = null;
    let settled = 0;
    const deadline = Date.now() + 180_000;
    for (;;) {
      const [{ ok, done }] = (
        await svc.db.raw(
          `SELECT count(*) FILTER (WHERE status = 'succeeded')::int AS ok, count(*) FILTER (WHERE settled_at IS NOT NULL)::int AS done FROM payments WHERE id = ANY(?)`,
          [ids],
        )
      ).rows;
      settled = done;
      if (ok === N && succeededAt === null) succeededAt = performance.now();
      if (done === N || Date.now() > deadline) break;
      await sleep(20);
    }
    const t1 = performance.now();
    const cpu1 = cpuByKind();
    const cpu = Object.fromEntries(Object.entries(cpu1).map(([k, v]) => [k, v - (cpu0[k] || 0)]));
    const mono1 = process.hrtime.bigint() / 1000n;
    await confirming;
    const rate = settled / ((t1 - t0) / 1000);
    const xactsDuring = (await xacts()) - xactsBefore;
    const statements = PROFILE
      ? (
          await svc.db.raw(
            `SELECT calls::int, total_exec_time AS ms, regexp_replace(query, '\\s+', ' ', 'g') AS query FROM pg_stat_statements
       WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY calls DESC`,
          )
        ).rows
      : null;
    const profile = PROFILE
      ? { rpc: proxy.report(), db: await stopSampling(), statements, durationMs: t1 - t0, profDir, window: [mono0, mono1] }
      : null;

    // Every payment shows its settlement through the API.
    let shown = 0;
    await pool(N, 20, async (i) => {
      if ((await svc.merchant('GET', `/v1/payments/${ids[i]}`)).settlement) shown++;
    });

    // Nonces and duplicates: the database's record against the chain's count.
    const txs = await svc.db('chain_transactions').where({ sender: relayer }).orderBy('nonce');
    const live = txs.filter((t) => t.status !== 'dropped');
    const nonces = new Set(live.map((t) => Number(t.nonce)));
    const top = Math.max(...nonces);
    let gaps = 0;
    for (let n = nonceBefore; n <= top; n++) if (!nonces.has(n)) gaps++;
    const nonceAfter = await s.pub.getTransactionCount({ address: relayer });
    const perPayment = new Map();
    for (const t of live.filter((x) => x.purpose === 'collect')) perPayment.set(t.payment_id, (perPayment.get(t.payment_id) || 0) + 1);
    const duplicates = [...perPayment.values()].filter((c) => c > 1).length;
    const dupSettles = (
      await svc
        .db('chain_transactions')
        .where({ purpose: 'settle' })
        .whereNot('status', 'dropped')
        .groupBy('payment_id')
        .havingRaw('count(*) > 1')
        .select('payment_id')
    ).length;

    // Where the time went: per payment, stage durations from the stored timestamps (ms).
    const stages = {
      'confirm -> collect signed (submit job)': [],
      'collect signed -> broadcast': [],
      'collect broadcast -> final (monitor)': [],
      'collect final -> settle signed (settle job)': [],
      'settle signed -> broadcast': [],
      'settle broadcast -> final (monitor)': [],
    };
    const byPayment = new Map();
    for (const t of live) byPayment.set(`${t.payment_id}/${t.purpose}`, t);
    const ms = (d) => new Date(d).getTime();
    for (const id of ids) {
      const c = byPayment.get(`${id}/collect`);
      const st = byPayment.get(`${id}/settle`);
      if (!c || !st) continue;
      const v = Object.values(stages);
      v[0].push(ms(c.signed_at) - confirmedAt.get(id));
      v[1].push(ms(c.broadcast_at) - ms(c.signed_at));
      v[2].push(ms(c.finished_at) - ms(c.broadcast_at));
      v[3].push(ms(st.signed_at) - ms(c.finished_at));
      v[4].push(ms(st.broadcast_at) - ms(st.signed_at));
      v[5].push(ms(st.finished_at) - ms(st.broadcast_at));
    }
    // Progress over time: how many transactions the relayer had signed, broadcast and finished per second.
    const timeline = [];
    const end = wall0 + (t1 - t0);
    for (let t = wall0; t < end + 1000; t += 1000) {
      const upTo = (f) => live.filter((x) => x[f] && ms(x[f]) < t + 1000).length;
      timeline.push({
        s: Math.round((t - wall0) / 1000),
        signed: upTo('signed_at'),
        broadcast: upTo('broadcast_at'),
        final: upTo('finished_at'),
      });
    }
    const gasOf = (purpose) =>
      meanGas(
        chain.rpcUrl,
        live.filter((t) => t.purpose === purpose && t.status === 'confirmed').map((t) => t.tx_hash),
      );
    const gas = {
      transfer: await meanGas(chain.rpcUrl, hashes.slice(0, 50)),
      collect: await gasOf('collect'),
      settle: await gasOf('settle'),
    };
    return {
      gas,
      baseRate,
      baseOk,
      rate,
      settled,
      shown,
      succeededS: succeededAt && (succeededAt - t0) / 1000,
      confirmsS: ((confirmsDone ?? t1) - t0) / 1000,
      totalS: (t1 - t0) / 1000,
      txCount: live.length,
      dropped: txs.length - live.length,
      gaps,
      duplicates,
      dupSettles,
      chainSent: nonceAfter - nonceBefore,
      dbNonces: live.length,
      stages,
      timeline,
      xactsDuring,
      cpu,
      profile,
    };
  } finally {
    if (svc) await svc.stop();
    if (proxy) await proxy.close();
    await chain.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function printProfile(p) {
  const s = p.durationMs / 1000;
  console.log(`\nprofile of part 2 (${fmt(s)} s): JSON-RPC calls from the service (max ${p.rpc.maxInFlight} HTTP requests in flight)`);
  console.log('  method | calls | per s | mean ms per HTTP round trip | summed ms');
  for (const [m, x] of p.rpc.stats)
    console.log(`  ${m} | ${x.calls} | ${fmt(x.calls / s)} | ${x.ms ? fmt(x.ms / x.calls) : '-'} | ${x.ms ? fmt(x.ms) : '-'}`);
  console.log(`  database sessions of the service, mean count per sample (${p.db.samples} samples, every 10 ms):`);
  for (const [k, n] of p.db.sessions) console.log(`    ${k}: ${fmt(n)}`);
  const calls = p.statements.reduce((a, r) => a + r.calls, 0);
  console.log(
    `  SQL statements in the service's database: ${calls} (${fmt(calls / N)} per payment; pg_stat_statements, includes pg-boss and this script's polling), the most frequent:`,
  );
  for (const r of p.statements.slice(0, Number(process.env.BENCH_CHAIN_STATEMENTS || 20)))
    console.log(`    ${r.calls} x ${fmt(r.ms / r.calls)} ms  ${r.query.slice(0, 150)}`);
  const file = fs.readdirSync(p.profDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return console.log('  (no CPU profile written)');
  const cpu = topSelfTime(path.join(p.profDir, file), p.window);
  console.log(`  service CPU during the run, self time (${fmt(cpu.totalMs)} ms sampled; ${p.profDir}/${file}; logs in service.log):`);
  for (const [k, ms] of cpu.top) console.log(`    ${fmt(ms)} ms  ${k}`);
}

async function main() {
  const pg = await startPostgres(PROFILE ? ['-c', 'shared_preload_libraries=pg_stat_statements'] : []);
  try {
    const lat = LAT_N > 0 ? await latency(pg) : { base: [NaN], ours: [NaN], confirmMs: [NaN], stages: {} }; // 0: part 2 only
    console.log(
      `\n1. confirm -> succeeded, anvil --block-time 1, depth 1, monitor tick 100 ms, ${LAT_N} payments, ${LAT_CONCURRENCY} at a time`,
    );
    console.log(
      `  baseline (sendRawTransaction of an ERC-20 transfer -> receipt, polled every 10 ms): p50 ${fmt(pct(lat.base, 50))} ms, p99 ${fmt(pct(lat.base, 99))} ms`,
    );
    console.log(
      `  paygate (confirm response -> status long-poll says succeeded): p50 ${fmt(pct(lat.ours, 50))} ms, p99 ${fmt(pct(lat.ours, 99))} ms (confirm itself: p50 ${fmt(pct(lat.confirmMs, 50))} ms)`,
    );
    console.log(
      `  where the time went (ms per payment, p50 / p99): ${Object.entries(lat.stages)
        .map(([k, xs]) => `${k} ${fmt(pct(xs, 50))} / ${fmt(pct(xs, 99))}`)
        .join('; ')}`,
    );

    const tp = await throughput(pg);
    console.log(
      `\n2. settled payments per second, one relayer key, anvil automine, ${N} payments, ${CONCURRENCY} confirms in flight, monitor tick ${POLL_MS} ms`,
    );
    console.log(
      `  baseline (${N} ERC-20 transfers, one key, local nonces, ${CONCURRENCY} in flight): ${fmt(tp.baseRate)} tx/s (${tp.baseOk}/${N} succeeded)`,
    );
    console.log(
      `  paygate: ${tp.settled}/${N} settled in ${fmt(tp.totalS)} s = ${fmt(tp.rate)} payments/s (${fmt((2 * tp.settled) / tp.totalS)} relayer tx/s); confirms done at ${fmt(tp.confirmsS)} s, all succeeded at ${tp.succeededS === null ? '-' : fmt(tp.succeededS)} s; API shows ${tp.shown}/${N} settlements`,
    );
    console.log(
      `  relayer: ${tp.dbNonces} live transactions in the database (${tp.dropped} dropped), ${tp.chainSent} sent on chain; nonce gaps ${tp.gaps}, duplicate collects ${tp.duplicates}, duplicate settles ${tp.dupSettles}`,
    );
    console.log(
      `  database transactions during the run: ${tp.xactsDuring} (${fmt(tp.xactsDuring / Math.max(1, tp.settled))} per settled payment)`,
    );
    const cpuTotal = Object.values(tp.cpu).reduce((a, b) => a + b, 0);
    console.log(
      `  CPU during the run: ${Object.entries(tp.cpu)
        .map(([k, v]) => `${k} ${fmt(v)} s (${fmt((1000 * v) / Math.max(1, tp.settled))} ms per payment)`)
        .join(', ')}; ${fmt(cpuTotal / tp.totalS)} of ${os.cpus().length} cores busy with them; at ${fmt(
        (1000 * cpuTotal) / Math.max(1, tp.settled),
      )} ms of CPU per payment the machine's cores allow at most ${fmt((os.cpus().length * tp.settled) / Math.max(cpuTotal, 1e-9))} payments/s`,
    );
    console.log('  where the time went (ms per payment, p50 / p99 / max):');
    for (const [name, xs] of Object.entries(tp.stages))
      console.log(`    ${name}: ${fmt(pct(xs, 50))} / ${fmt(pct(xs, 99))} / ${fmt(Math.max(...xs))}`);
    console.log(
      `  relayer transactions by second (signed/broadcast/final): ${tp.timeline.map((x) => `${x.s}s ${x.signed}/${x.broadcast}/${x.final}`).join(', ')}`,
    );

    const p2 = process.env.BENCH_CHAIN_PERMIT2 === '0' ? null : await throughput(pg, PERMIT2_TOKEN);
    if (p2) {
      console.log(
        `\n3. Permit2: the same as 2, paid in ${PERMIT2_TOKEN} (Tether-like) through Permit2, buyers' approves mined before the run`,
      );
      console.log(`  baseline (${N} ERC-20 transfers, one key): ${fmt(p2.baseRate)} tx/s (${p2.baseOk}/${N} succeeded)`);
      console.log(
        `  paygate: ${p2.settled}/${N} settled in ${fmt(p2.totalS)} s = ${fmt(p2.rate)} payments/s; API shows ${p2.shown}/${N} settlements; nonce gaps ${p2.gaps}, duplicate collects ${p2.duplicates}, duplicate settles ${p2.dupSettles}`,
      );
    }
    console.log('\ngas per payment (mean of receipts) | plain transfer | collect | settle | collect + settle');
    for (const [name, x] of [['EIP-3009 (USDC)', tp], ...(p2 ? [[`Permit2 (${PERMIT2_TOKEN})`, p2]] : [])])
      console.log(`${name} | ${fmt(x.gas.transfer)} | ${fmt(x.gas.collect)} | ${fmt(x.gas.settle)} | ${fmt(x.gas.collect + x.gas.settle)}`);

    const sound = (x) =>
      x.gaps === 0 && x.duplicates === 0 && x.dupSettles === 0 && x.chainSent === x.dbNonces && x.settled === N && x.shown === N;
    const ok = sound(tp) && (!p2 || sound(p2));
    console.log('\nmeasure | baseline | paygate | ratio');
    console.log(
      `succeeded latency p50 (ms) | ${fmt(pct(lat.base, 50))} | ${fmt(pct(lat.ours, 50))} | ${fmt(pct(lat.ours, 50) / pct(lat.base, 50))}`,
    );
    console.log(
      `succeeded latency p99 (ms) | ${fmt(pct(lat.base, 99))} | ${fmt(pct(lat.ours, 99))} | ${fmt(pct(lat.ours, 99) / pct(lat.base, 99))}`,
    );
    console.log(
      `settled payments/s, one key (baseline: transfers/s) | ${fmt(tp.baseRate)} | ${fmt(tp.rate)} | ${fmt(tp.rate / tp.baseRate)}`,
    );
    console.log(
      `relayer transactions/s, one key (2 per payment) | ${fmt(tp.baseRate)} | ${fmt((2 * tp.settled) / tp.totalS)} | ${fmt((2 * tp.settled) / tp.totalS / tp.baseRate)}`,
    );
    if (p2)
      console.log(
        `Permit2 settled payments/s, one key (baseline: transfers/s) | ${fmt(p2.baseRate)} | ${fmt(p2.rate)} | ${fmt(p2.rate / p2.baseRate)}`,
      );
    console.log(
      `settled / nonce gaps / duplicate submissions | - | ${tp.settled}/${N} / ${tp.gaps} / ${tp.duplicates + tp.dupSettles} | ${ok ? 'ok' : 'FAILED'}`,
    );
    if (!ok) process.exitCode = 1;
    if (tp.profile) printProfile(tp.profile);
  } finally {
    await pg.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
