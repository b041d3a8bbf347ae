import cluster, { Worker } from 'node:cluster';
import type { Config } from './config';
import type { Logger } from './logger';
import { connect } from './db/connect';
import { migrateLatest } from './db/migrate';
import { startChains } from './chain/chains';

/**
 * PROCESSES > 1: this process is the primary of a node:cluster; each worker is a whole paygate (API and job
 * workers) listening on the same port, over the same PostgreSQL, as separate machines would be. The primary
 * serves nothing: it starts what is embedded once (PostgreSQL without DATABASE_URL, the development chain
 * without chain settings) and runs the migrations, hands the workers their URLs, replaces a worker that dies,
 * and on SIGTERM or SIGINT stops the workers (each drains as on its own) before what it started.
 */
export async function runPrimary(config: Config, log: Logger): Promise<void> {
  const database = await connect(config, (m) => log.debug({ postgres: m.trim() }, 'embedded postgres'));
  const applied = await migrateLatest(database.db);
  const chains = config.devnet && !config.devnet.rpcUrl ? await startChains(config, database.db, log) : null;
  const env = {
    PROCESSES: '1',
    DATABASE_URL: database.url,
    ...(chains?.devnetRpcUrl ? { DEVNET_RPC_URL: chains.devnetRpcUrl } : {}),
  };
  log.info({ applied, embedded: database.embedded, processes: config.processes }, 'database ready; starting service processes');

  let stopping = false;
  const workers = new Set<Worker>();
  const fork = () => {
    const w = cluster.fork(env);
    workers.add(w);
    w.once('exit', (code, signal) => {
      workers.delete(w);
      if (stopping) return;
      log.error({ pid: w.process.pid, code, signal }, 'a service process exited; starting another');
      setTimeout(() => {
        if (!stopping) fork();
      }, 1000).unref();
    });
  };
  for (let i = 0; i < config.processes; i++) fork();

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping the service processes');
    const force = setTimeout(() => process.exit(1), 35_000);
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
}
