import PgBoss from 'pg-boss';
import type { Logger } from '../logger';

// One PostgreSQL job queue (pg-boss) per process, shared by the chain and webhook workers. pg-boss takes
// jobs with SKIP LOCKED, so any number of processes may work the same queues.
// `supervise`: pg-boss's own maintenance (expiring and archiving jobs) runs in the processes that work the
// queues; a process that only enqueues (ROLE=api) leaves it to them.
export async function startQueue(dbUrl: string, log: Logger, { supervise = true } = {}): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: dbUrl,
    schema: 'pgboss',
    max: 4,
    application_name: 'paygate-jobs',
    schedule: false,
    supervise,
  });
  boss.on('error', (e) => log.warn({ err: (e as Error).message }, 'job queue error'));
  await boss.start();
  return boss;
}
