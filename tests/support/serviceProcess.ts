import { ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import SERVICE_ENV from './service-env.json';

// The built service as its own OS process (node dist/src/main.js) on the test database, for tests that
// kill it: a crash must be a real process dying, not a closed server object.

const root = path.resolve(__dirname, '../..');

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export async function spawnService(env: Record<string, string> = {}): Promise<ServiceProcess> {
  const port = await freePort();
  let out = '';
  const child = spawn(process.execPath, [path.join(root, 'dist/src/main.js')], {
    cwd: root,
    env: { ...process.env, ...SERVICE_ENV, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${out}`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`service not ready:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    output: () => out,
    kill: async (signal = 'SIGKILL') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await exited;
    },
  };
}
