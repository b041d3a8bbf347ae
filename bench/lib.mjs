// Shared bench plumbing: a throwaway embedded PostgreSQL, child processes, autocannon runs.
import { spawn, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freePort, startThrowawayPostgres } from '../scripts/throwaway-pg.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export { freePort };

export const startPostgres = (extraFlags = []) =>
  startThrowawayPostgres({ database: 'paygate_bench', fast: false, extraFlags: ['-c', 'shared_buffers=256MB', ...extraFlags] });

export function node(script, env, args = []) {
  return execFileSync('node', [path.join(root, script), ...args], { env: { ...process.env, ...env }, cwd: root }).toString();
}

/**
 * Starts a child process and waits until GET <url>/readyz (or /) answers. `nodeArgs`: flags for node itself
 * (--cpu-prof); `stdout`: where its standard output goes (a file descriptor; discarded by default).
 */
export async function startChild(script, env, readyUrl, { nodeArgs = [], stdout = 'ignore' } = {}) {
  const child = spawn('node', [...nodeArgs, path.join(root, script)], {
    env: { ...process.env, ...env },
    cwd: root,
    stdio: ['ignore', stdout, 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    try {
      const r = await fetch(readyUrl);
      if (r.ok) return child;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`${script} did not become ready`);
}

export const stopChild = (child) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

export function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

export async function load(opts) {
  const r = await autocannon({ connections: 50, duration: Number(process.env.BENCH_SECONDS || 10), ...opts });
  const errors = r.errors + r.timeouts + (r.non2xx || 0);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors };
}

/**
 * The service's environment in benchmarks: production mode (no response validation), quiet logs. With `chain`
 * (startBenchChain), the service settles on that development chain, which production would not attach to:
 * development mode with response validation off, the closest (as bench/chain/service.mjs has it).
 */
export const serviceEnv = (databaseUrl, port, chain) => ({
  DATABASE_URL: databaseUrl,
  PORT: String(port),
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  DATA_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
  METRICS_TOKEN: crypto.randomBytes(24).toString('hex'),
  ...(chain ? { NODE_ENV: 'development', VALIDATE_RESPONSES: 'false', DEVNET_RPC_URL: chain.rpcUrl, DEVNET_DIR: chain.dir } : {}),
});

/**
 * A development chain (anvil, the devnet's tokens deployed) for a benchmarked service to settle on: payments are
 * taken only for a merchant settling an asset of a chain the service serves. `asset`: its USDC.
 */
export async function startBenchChain() {
  const { startDevnetChain } = await import(path.join(root, 'dist/src/chain/devnetTokens.js'));
  const { devnetAssetId } = await import(path.join(root, 'dist/src/chain/devnet.js'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-chain-'));
  const anvil = await startDevnetChain({ dir, port: await freePort() });
  return {
    rpcUrl: anvil.rpcUrl,
    dir,
    asset: devnetAssetId('USDC'),
    stop: async () => {
      await anvil.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Per-second rate limits lifted, for loads from one credential (the limits are not what a bench measures). */
export const LIFTED_LIMITS = { RATE_LIMIT_CREDENTIAL_PER_S: '1000000', RATE_LIMIT_ACCOUNT_PER_S: '1000000' };

export const fmt = (x) => (Math.round(x * 100) / 100).toString();

/**
 * A merchant of the account behind `apiKey` that settles the bench chain's USDC (startBenchChain), and what
 * creating and reading its payments takes: the headers, a creation body and one payment id.
 */
export async function benchMerchant(svc, apiKey, chain) {
  const h = { 'Api-Key': apiKey, 'content-type': 'application/json' };
  const m = await (
    await fetch(`${svc}/v1/merchants`, {
      method: 'POST',
      headers: { ...h, 'Idempotency-Key': `bench-${crypto.randomUUID()}` },
      body: JSON.stringify({ merchantName: 'Bench', merchantEmail: 'b@x.io' }),
    })
  ).json();
  const merchantId = m.merchant.id;
  await fetch(`${svc}/v1/merchants/${merchantId}/settlements/crypto`, {
    method: 'POST',
    headers: { ...h, 'Idempotency-Key': `bench-s-${crypto.randomUUID()}` },
    body: JSON.stringify({
      settlements: [{ asset: chain.asset, destination: `${chain.asset.split('/')[0]}:0x52908400098527886E0F7030069857D2E4169EE7` }],
    }),
  });
  const headers = { ...h, 'Merchant-Id': merchantId };
  const body = JSON.stringify({
    referenceId: 'order-bench',
    amount: { unit: 'iso4217/USD', value: '1000' },
    expiresAt: Math.floor(Date.now() / 1000) + 86400,
  });
  const created = await fetch(`${svc}/v1/payments`, { method: 'POST', headers, body });
  const pay = await created.json();
  if (created.status !== 201) throw new Error(`bench merchant: POST /v1/payments ${created.status} ${JSON.stringify(pay)}`);
  return { merchantId, headers, body, paymentId: pay.paymentId };
}
