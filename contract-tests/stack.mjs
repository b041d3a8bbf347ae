// The service under test for the contract gate: a throwaway embedded PostgreSQL (fresh temp dir, free
// port, migrated by the service at start) and the built service (`node dist/src/main.js`) on a free
// port, ready when /readyz answers 200. The service starts its own development chain (anvil, with its
// state, relayer key and devnet.json in a fresh temp dir, on a free port), so stacks never share one.
// stop() tears everything down; it is safe to call more than once.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
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
    } catch {
      /* not listening yet */
    }
    if (Date.now() > until) throw new Error(`${url} not ready after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts PostgreSQL and the service (which starts its development chain); logs of the service go to logFile;
 * `env`: settings of the service that replace the ones above (a caller that needs no fast background work).
 * Returns `env`, the service's environment, for the admin command (`devnet info`, `devnet fund` read the
 * chain's devnet.json in DEVNET_DIR); and `devnet` ({ dir, rpcUrl }).
 *
 * It also exports DEVNET_DIR and DEVNET_RPC_URL to this process's environment, so that whatever the caller
 * starts next reaches the same chain: the integration suite run against this stack (its globalSetup attaches
 * to DEVNET_RPC_URL instead of starting another chain, and its tests fund buyers there) and the clients.
 * stop() restores them.
 */
export async function startStack({ logFile, env: settings = {} }) {
  const pg = await startThrowawayPostgres({ database: 'paygate_contract' });
  const devnetDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-stack-devnet-'));
  const exported = {
    DEVNET_DIR: process.env.DEVNET_DIR,
    DEVNET_RPC_URL: process.env.DEVNET_RPC_URL,
    DEVNET2_RPC_URL: process.env.DEVNET2_RPC_URL,
  };
  let service;
  let stopped = false;
  // The service leads a process group of its own, with the anvil it starts: a service that must be killed
  // (or that died) never leaves its chain running.
  const killGroup = () => {
    try {
      process.kill(-service.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  /** Processes added by addProcess(). */
  const extras = [];
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all(
      extras
        .filter((c) => c.exitCode === null)
        .map((c) => {
          const exited = new Promise((r) => c.once('exit', r));
          c.kill('SIGTERM');
          return Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]).then(() => c.exitCode === null && c.kill('SIGKILL'));
        }),
    );
    if (service && service.exitCode === null) {
      const exited = new Promise((r) => service.once('exit', r));
      service.kill('SIGTERM'); // the service stops its chain (anvil writes its state and exits)
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    }
    if (service?.pid) killGroup();
    for (const [k, v] of Object.entries(exported)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await pg.stop();
    fs.rmSync(devnetDir, { recursive: true, force: true });
  };
  try {
    const databaseUrl = pg.url;
    ensureTestTls(); // WEBHOOK_CA_FILE of the service environment
    const port = await freePort();
    const devnetPort = await freePort();
    const devnet2Port = await freePort();
    const env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      // The integration suite runs against this service too: same settings as its in-process services.
      ...JSON.parse(fs.readFileSync(path.join(root, 'tests/support/service-env.json'), 'utf8')),
      NODE_ENV: 'development',
      VALIDATE_RESPONSES: 'true',
      // Schemathesis sends every operation without and with broken credentials, back to back from one address: the
      // limit of failed authentications per address would answer some 429 where its checks expect the 401.
      RATE_LIMIT_AUTH_FAILURES_PER_IP_PER_S: '1000000',
      LOG_LEVEL: process.env.CONTRACT_LOG_LEVEL ?? 'info',
      // A development chain of its own: never one a caller's environment points at, never a shared port or folder.
      DEVNET_DIR: devnetDir,
      DEVNET_PORT: String(devnetPort),
      DEVNET2_PORT: String(devnet2Port),
      ...settings,
    };
    for (const k of ['DEVNET_RPC_URL', 'DEVNET2_RPC_URL', 'DEVNET_RELAYER_KEYS', 'DEVNET_CONFIRMATIONS', 'DEVNET_BLOCK_TIME_S', 'CHAINS'])
      delete env[k];
    const log = fs.openSync(logFile, 'w');
    service = spawn(process.execPath, [path.join(root, 'dist/src/main.js')], {
      cwd: root,
      env,
      stdio: ['ignore', log, log],
      detached: true,
    });
    service.once('exit', () => killGroup()); // a service that died takes its chain with it
    const url = `http://127.0.0.1:${port}`;
    await waitFor(`${url}/readyz`, { child: service, timeoutMs: 120_000 }); // starting the chain and deploying the tokens takes a while on a busy machine
    const written = JSON.parse(fs.readFileSync(path.join(devnetDir, 'devnet.json'), 'utf8'));
    const { rpcUrl } = written;
    // Both development chains: a process attached to the first uses the second only when given its URL.
    const rpcUrls = { DEVNET_RPC_URL: rpcUrl, DEVNET2_RPC_URL: written.chains[1].rpcUrl };
    process.env.DEVNET_DIR = devnetDir;
    Object.assign(process.env, rpcUrls);
    /**
     * One more process of the service on the same database and chain, as a scaled-out deployment runs it (its
     * log in `logFile`): its URL. Suites that run at the same time each get one, so that what a test reads
     * from its process (/metrics counters, long-poll waiters) counts only its own requests. Stopped with the stack.
     */
    const addProcess = async (logFile) => {
      const extraPort = await freePort();
      const out = fs.openSync(logFile, 'w');
      const extra = spawn(process.execPath, [path.join(root, 'dist/src/main.js')], {
        cwd: root,
        env: { ...env, PORT: String(extraPort), ...rpcUrls },
        stdio: ['ignore', out, out],
      });
      extras.push(extra);
      const extraUrl = `http://127.0.0.1:${extraPort}`;
      await waitFor(`${extraUrl}/readyz`, { child: extra, timeoutMs: 120_000 });
      return extraUrl;
    };
    return { url, databaseUrl, env, devnet: { dir: devnetDir, rpcUrl }, addProcess, stop };
  } catch (e) {
    await stop();
    throw new Error(`${e instanceof Error ? e.message : e}; the service's log (${logFile}) ends with:\n${logTail(logFile)}`, { cause: e });
  }
}

/** The last lines of a log file, for an error that says why a process did not start. */
function logTail(file, lines = 8) {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(-lines)
      .map((l) => `  ${l.slice(0, 400)}`)
      .join('\n');
  } catch {
    return '  (no log)';
  }
}
