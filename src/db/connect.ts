import type { Config } from '../config';
import { createDb, Db, DbTimeouts } from './knex';
import { startEmbedded } from './embedded';
import { migrateLatest } from './migrate';
import type { Logger } from '../logger';

/** DATABASE_URL when given; otherwise the project's embedded PostgreSQL (started if not yet running). */
export async function connect(
  config: Config,
  onLog?: (m: string) => void,
): Promise<{ db: Db; url: string; stop(): Promise<void>; embedded: boolean }> {
  if (config.databaseUrl) {
    const db = createDb(config.databaseUrl, config.dbPoolMax, dbTimeouts(config));
    return { db, url: config.databaseUrl, embedded: false, stop: () => db.destroy() };
  }
  const embedded = await startEmbedded(config.embeddedDataDir, config.embeddedPort, onLog);
  const db = createDb(embedded.url, config.dbPoolMax, dbTimeouts(config));
  return {
    db,
    url: embedded.url,
    embedded: true,
    stop: async () => {
      await db.destroy();
      await embedded.stop();
    },
  };
}

export const dbTimeouts = (config: Config): DbTimeouts => ({
  acquireTimeoutMs: config.dbAcquireTimeoutMs,
  statementTimeoutMs: config.dbStatementTimeoutMs,
});

/** The database a process starts with (connect, then the migrations), as main and the cluster primary open it. */
export async function connectAndMigrate(config: Config, log: Logger): Promise<Awaited<ReturnType<typeof connect>>> {
  const database = await connect(config, (m) => log.debug({ postgres: m.trim() }, 'embedded postgres'));
  const applied = await migrateLatest(database.db);
  log.info({ applied, embedded: database.embedded }, 'database ready');
  return database;
}
