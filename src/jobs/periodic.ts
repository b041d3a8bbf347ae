import type { Logger } from '../logger';

// The one shape of background work that runs on a clock (BTCPay Server's PeriodicTaskLauncherHostedService is the
// model): named tasks, each run every so often, a failure logged under the task's name and tried again at its next
// time (it never keeps the others from running). Tasks of the same period run one after another in the order they
// are registered, one pass at a time per process, so a slow pass is never overlapped by the next. Every process
// that works (ROLE=worker or all) runs them all: each task is safe in several processes at once (conditional
// updates, row locks, leases). What runs and how often is written in one place, src/jobs/schedule.ts.

export interface PeriodicTask {
  /** Shown in logs: what the task does, in a few words (`expire-payments`). */
  name: string;
  everyMs: number;
  run(): Promise<unknown>;
}

export interface Periodic {
  /** One pass of every task now (after a pass in progress), resolved when all have run. Tests use it. */
  tickAll(): Promise<void>;
  /** No further passes; resolves once the passes in progress have ended (before the pool is destroyed). */
  stop(): Promise<void>;
}

export function startPeriodic(tasks: PeriodicTask[], log: Logger): Periodic {
  let stopped = false;
  const periods = [...new Set(tasks.map((t) => t.everyMs))];
  const loops = periods.map((everyMs) => {
    const group = tasks.filter((t) => t.everyMs === everyMs);
    let running: Promise<void> | null = null;
    const pass = async () => {
      for (const task of group) {
        if (stopped) return;
        try {
          await task.run();
        } catch (e) {
          log.warn({ task: task.name, err: (e as Error).message }, 'periodic task failed; will retry');
        }
      }
    };
    const tick = (): Promise<void> => (running ??= pass().finally(() => (running = null)));
    const timer = setInterval(() => void tick(), everyMs);
    timer.unref();
    return {
      tick: async () => {
        await running;
        await tick();
      },
      stop: async () => {
        clearInterval(timer);
        await running;
      },
    };
  });
  return {
    tickAll: async () => {
      for (const loop of loops) await loop.tick();
    },
    stop: async () => {
      stopped = true;
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}
