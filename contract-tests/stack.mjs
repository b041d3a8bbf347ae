// The service under test for the contract gate: a throwaway embedded PostgreSQL (fresh temp dir, free
// port, migrated by the service at start) and the built service (`node dist/src/main.js`) on a free
// port, ready when /readyz answers 200. stop() tears both down; it is safe to call more than once.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, startThrowawayPostgres } from '../scripts/throwaway-pg.mjs';
import { ensureTestTls } from '../scripts/test-tls.mjs';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export { freePort };

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
  const pg = await startThrowawayPostgres({ database: 'paygate_contract' });
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
    await pg.stop();
  };
  try {
    const databaseUrl = pg.url;
    ensureTestTls(); // WEBHOOK_CA_FILE of the service environment
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
