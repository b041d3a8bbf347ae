import type { Db } from '../db/knex';
import type { Logger } from '../logger';
import type { Config } from '../config';
import { purgeExpired } from '../db/idempotencyRepo';
import { purgeEnded } from '../db/dashboardRepo';
import { expireOverduePayments } from '../usecases/payments/expiry';
import { purgeExpiredQuotes } from '../usecases/gateway/optionRoom';
import type { ChainJobs } from './chainJobs';
import { startPeriodic, type Periodic, type PeriodicTask } from './periodic';

// Everything this service does on a clock, in one list: what runs, in what order, how often (src/jobs/periodic.ts
// runs them). The chain monitors (a pass per chain and key, woken by new work) and the webhook dispatcher (woken by
// payment changes) keep their own clocks: they are loops of their own work, not chores.

export interface ScheduleDeps {
  db: Db;
  log: Logger;
  config: Pick<Config, 'sweepIntervalMs' | 'limits' | 'dashboard'>;
  chainJobs: ChainJobs;
  /** The shared rate limiter (src/http/rateLimit.ts): its spent counts are purged here. */
  limiter: { purge(): Promise<unknown> };
}

function backgroundTasks({ db, config, chainJobs, limiter }: ScheduleDeps): PeriodicTask[] {
  const every = config.sweepIntervalMs; // SWEEP_INTERVAL_MS
  return [
    // Open payments past their expiry expire even when nobody reads them, so their events go out on time.
    { name: 'expire-payments', everyMs: every, run: () => expireOverduePayments(db) },
    // Chain work whose job or process was lost (CHAIN_STRANDED_AFTER_MS idle) starts again.
    { name: 'rescue-chain-work', everyMs: every, run: () => chainJobs.rescueStranded() },
    // When do scheduled settlements go out: at this tick, once an account's period has passed.
    { name: 'settle-scheduled', everyMs: every, run: () => chainJobs.settleScheduled() },
    // Refund reserves whose window (REFUND_RESERVE_WINDOW_MINUTES) ended settle on to their merchants.
    { name: 'release-reserves', everyMs: every, run: () => chainJobs.releaseReserves() },
    // Idempotency records past their 24 h retention, spent rate-limit counts, expired quotes (bounded batches).
    { name: 'purge-idempotency', everyMs: every, run: () => purgeExpired(db) },
    { name: 'purge-rate-limits', everyMs: every, run: () => limiter.purge() },
    { name: 'purge-quotes', everyMs: every, run: () => purgeExpiredQuotes(db, config.limits) },
    // Dashboard sessions that ended unseen, TOTP steps out of their window, invitations long expired.
    { name: 'purge-dashboard', everyMs: every, run: () => purgeEnded(db, config.dashboard.sessionIdleMs) },
  ];
}

export const startSchedule = (deps: ScheduleDeps): Periodic => startPeriodic(backgroundTasks(deps), deps.log);
