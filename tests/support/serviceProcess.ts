import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import SERVICE_ENV from './service-env.json';

// The built service as its own OS process (node dist/src/main.js) on the test database, for tests that
// signal or kill it: a shutdown or a crash must be a real process ending, not a closed server object.

const root = path.resolve(__dirname, '../..');

export interface ServiceProcess {
  proc: ChildProcess;
  url: string;
  /** Every JSON log line so far. */
  logs: { level: number; msg: string }[];
  exited: Promise<{ code: number | null; at: number }>;
  /** What the process wrote to stderr (an uncaught error's stack, for one). */
  stderr(): string;
  /** Sends `signal` (default SIGKILL: a crash) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts the built service on a free port (PORT=0) and resolves once it logs the URL it listens on. `group`: in a
 * process group of its own, as a shell runs a command (a terminal's Ctrl-C is SIGINT to that group: signal `-pid`).
 */
export function spawnService(env: Record<string, string> = {}, opts: { group?: boolean } = {}): Promise<ServiceProcess> {
  const proc = spawn(process.execPath, [path.join(root, 'dist/src/main.js')], {
    cwd: root,
    detached: opts.group ?? false,
    env: { ...process.env, ...SERVICE_ENV, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: ServiceProcess['logs'] = [];
  let stderr = '';
  proc.stderr!.on('data', (c) => (stderr += c));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    proc.on('exit', (code) => resolve({ code, at: Date.now() })),
  );
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    let buf = '';
    proc.stdout!.on('data', (chunk) => {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        logs.push(line);
        if (line.msg === 'paygate listening') resolve({ proc, url: line.url, logs, exited, kill, stderr: () => stderr });
      }
    });
    void exited.then(({ code }) => reject(new Error(`service exited (${code}) before listening: ${stderr}`)));
  });
}
