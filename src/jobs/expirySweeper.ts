import type { Db } from '../db/knex';
import type { Logger } from '../logger';
import { expireOverduePayments } from '../usecases/paymentExpiry';

/**
 * Expires open payments past their expiry even when nobody looks (so events go out on time). Every
 * process runs one; they cannot double-expire because each expiry is a conditional UPDATE. Each tick may
 * also run `alsoEachTick` (the chain jobs re-enqueue payments stranded in processing).
 */
export function startExpirySweeper(db: Db, log: Logger, intervalMs: number, alsoEachTick?: () => Promise<unknown>) {
  let running: Promise<void> | null = null;
  const tick = () => (running ??= sweep().finally(() => (running = null)));
  const sweep = async () => {
    try {
      await expireOverduePayments(db);
      await alsoEachTick?.();
    } catch (e) {
      log.warn({ err: (e as Error).message }, 'expiry sweep failed; will retry');
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  /** No further ticks; resolves once a tick in progress has finished (before the pool is destroyed). */
  const stop = async () => {
    clearInterval(timer);
    await running;
  };
  return { stop, tick };
}
