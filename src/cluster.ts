import cluster, { Worker } from 'node:cluster';
import type { Config } from './config';
import type { Logger } from './logger';
import { connectAndMigrate } from './db/connect';
import { handOffSignals } from './db/embedded';
import { startChains } from './chain/chains';

/**
 * PROCESSES > 1: this process is the primary of a node:cluster; each worker is a whole paygate (the API, the
 * job workers, or both, as ROLE says) listening on the same port, over the same PostgreSQL, as separate machines would be. The primary
 * serves nothing: it starts what is embedded once (PostgreSQL without DATABASE_URL, the development chain
 * without chain settings) and runs the migrations, hands the workers their URLs, replaces a worker that dies,
 * and on SIGTERM or SIGINT stops the workers (each drains as on its own) before what it started.
 */
export async function runPrimary(config: Config, log: Logger): Promise<void> {
  const database = await connectAndMigrate(config, log);
  // The development chain is set up once, here (tokens deployed, relayers funded, assets registered), whether
  // this process starts it or DEVNET_RPC_URL names one: N processes doing it at once would race the deployment.
  const chains = config.devnet ? await startChains(config, database.db, log) : null;
  const env = {
    PROCESSES: '1',
    DATABASE_URL: database.url,
    ...chains?.devnetEnv,
  };
  log.info({ processes: config.processes }, 'starting service processes');

  let stopping = false;
  let restarts = 0; // backs off when processes keep dying (1 s, doubling up to 30 s); a process up for a minute resets it
  const workers = new Set<Worker>();
  const fork = () => {
    const w = cluster.fork(env);
    workers.add(w);
    const settled = setTimeout(() => (restarts = 0), 60_000);
    settled.unref();
    w.once('exit', (code, signal) => {
      clearTimeout(settled);
      workers.delete(w);
      if (stopping) return;
      // Not unref'd: when every process died at once (the database unreachable at their start), this timer is
      // what keeps the primary alive to start them again.
      const delayMs = Math.min(30_000, 1000 * 2 ** Math.min(restarts++, 5));
      log.error({ pid: w.process.pid, code, signal, restartInMs: delayMs }, 'a service process exited; starting another');
      setTimeout(() => {
        if (!stopping) fork();
      }, delayMs);
    });
  };
  for (let i = 0; i < config.processes; i++) fork();

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping the service processes');
    const force = setTimeout(() => process.exit(1), 45_000); // after the processes' own 30 s
    force.unref();
    await Promise.all(
      [...workers].map(
        (w) =>
          new Promise<void>((resolve) => {
            w.once('exit', () => resolve());
            w.process.kill('SIGTERM');
          }),
      ),
    );
    await chains?.stop().catch((e) => log.error({ err: e }, 'chain stop failed'));
    await database.stop().catch((e) => log.error({ err: e }, 'database stop failed'));
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  handOffSignals(); // the embedded PostgreSQL's own handlers would stop it before the workers drain
}
