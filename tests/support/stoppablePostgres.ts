import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

// A PostgreSQL of a test's own that it can stop and start again under a running service (outage tests).
// It runs in a child process (tests/support/pgCluster.mjs); close() stops and removes it.

export interface StoppablePostgres {
  url: string;
  /** Stops the server (fast shutdown: every session is terminated); data and port are kept. */
  halt(): Promise<void>;
  /** Starts it again on the same data and port. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

export async function stoppablePostgres(database: string): Promise<StoppablePostgres> {
  const proc = spawn(process.execPath, [path.join(__dirname, 'pgCluster.mjs'), database], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  const replies: ((m: Record<string, string>) => void)[] = [];
  readline.createInterface({ input: proc.stdout! }).on('line', (line) => replies.shift()?.(JSON.parse(line)));
  const next = () =>
    new Promise<Record<string, string>>((resolve, reject) => {
      replies.push(resolve);
      void exited.then(() => reject(new Error('the PostgreSQL process ended')));
    });
  const { url } = await next();
  const command = async (cmd: string) => {
    const reply = next();
    proc.stdin!.write(`${cmd}\n`);
    const r = await reply;
    if (r.error) throw new Error(`${cmd}: ${r.error}`);
  };
  return {
    url,
    halt: () => command('halt'),
    resume: () => command('resume'),
    close: async () => {
      proc.stdin!.end();
      await exited;
    },
  };
}
