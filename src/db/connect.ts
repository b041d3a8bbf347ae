import type { Knex } from 'knex';
import type { Config } from '../config';
import { createDb, DbTimeouts } from './knex';
import { startEmbedded } from './embedded';

/** DATABASE_URL when given; otherwise the project's embedded PostgreSQL (started if not yet running). */
export async function connect(
  config: Config,
  onLog?: (m: string) => void,
): Promise<{ db: Knex; url: string; stop(): Promise<void>; embedded: boolean }> {
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
