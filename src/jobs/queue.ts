import PgBoss from 'pg-boss';
import type { Logger } from '../logger';

// One PostgreSQL job queue (pg-boss) per process, shared by the chain and webhook workers. pg-boss takes
// jobs with SKIP LOCKED, so any number of processes may work the same queues.
export async function startQueue(dbUrl: string, log: Logger): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString: dbUrl, schema: 'pgboss', max: 4, application_name: 'paygate-jobs', schedule: false });
  boss.on('error', (e) => log.warn({ err: (e as Error).message }, 'job queue error'));
  await boss.start();
  return boss;
}
