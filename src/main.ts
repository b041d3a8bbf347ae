import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { connectAndMigrate } from './db/connect';
import { handOffSignals } from './db/embedded';
import cluster from 'node:cluster';
import { runPrimary } from './cluster';
import { startServer } from './server';
import { projectRoot } from './paths';
import { installRejectionPolicy } from './rejectionPolicy';
import { assertPortsOwned } from './ownership';

async function main() {
  let config;
  try {
    config = loadConfig(process.env, projectRoot);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`configuration error: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const log = createLogger(config.logLevel);
  installRejectionPolicy(log);
  // What this checkout does not own stops the start here, before anything runs (one line, exit 1).
  if (cluster.isPrimary) await assertPortsOwned(config);
  if (config.processes > 1 && cluster.isPrimary) return runPrimary(config, log);
  if (config.dataKeys.sealsWithDevelopmentKey) {
    // Anyone can read what this key seals (it is in the source code): say so on every start.
    log.warn(
      { dataKeyId: config.dataKeys.primary.id },
      'DATA_ENCRYPTION_KEY is not set: buyer data and webhook secrets are sealed with the PUBLIC development key; anyone with the database can read them. Set DATA_ENCRYPTION_KEY (or DATA_ENCRYPTION_KEYS) for any real data',
    );
  }
  if (process.env.NODE_ENV === 'production' && !process.env.PUBLIC_BASE_URL) {
    log.warn({ publicBaseUrl: config.publicBaseUrl }, 'PUBLIC_BASE_URL is not set: buyer links point at localhost');
  }
  const database = await connectAndMigrate(config, log);
  const running = await startServer(config, database.db, database.url, log).catch(async (e: unknown) => {
    await database.stop().catch(() => undefined);
    throw e;
  });
  log.info({ url: running.url, publicBaseUrl: config.publicBaseUrl }, 'paygate listening');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, delayMs: config.shutdownDelayMs }, 'shutting down: readiness fails, then in-flight requests finish');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    await running.close().catch((e) => log.error({ err: e }, 'server close failed'));
    await database.stop().catch((e) => log.error({ err: e }, 'database stop failed'));
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  handOffSignals(); // the embedded PostgreSQL's own handlers would stop it before the drain
}

main().catch((e) => {
  process.stderr.write(`paygate failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
