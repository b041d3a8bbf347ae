import type { Db } from '../db/knex';
import type { Logger } from '../logger';
import { AppError } from '../domain/errors';
import { addRateCounts, purgeRateCounts, sharedRateCount } from '../db/rateLimitRepo';

// Request limits that hold across every process of the service. Counting each request in PostgreSQL would
// cost a statement per request, so each process counts locally and adds its counts to a shared counter
// (one upsert per window and key) every `syncMs`, learning the total of all processes in return. A key is
// refused once the shared total plus what this process counted since is over its limit. Overshoot is
// bounded by one sync period of the other processes' traffic; a database that cannot be reached leaves
// each process limiting on its own counts (requests then fail on the database anyway).

export interface RateLimit {
  /** Requests per window. */
  limit: number;
  windowMs: number;
}

interface Counter {
  window: number;
  endsAt: number; // ms
  shared: number; // total of all processes as of the last sync (this process's flushed counts included)
  pending: number; // counted here and not yet added to the shared counter
  flushing: number; // being added right now (counted in neither of the above until the total comes back)
  /** The shared total when this process first saw the key in this window (what other processes counted). */
  ready: Promise<void>;
}

export class SharedRateLimiter {
  private readonly counters = new Map<string, Counter>();
  private timer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly syncMs = 100,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.sync(), this.syncMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.syncing;
    await this.sync();
  }

  /**
   * Counts one request for `key`; throws 429 rate_limited (with Retry-After) when over the limit. The first
   * request of a key in a window (and any arriving meanwhile) waits for one read of the shared total, so a
   * process joining a burst knows what the others counted; later ones cost nothing.
   */
  async take(key: string, rule: RateLimit, now = Date.now()): Promise<void> {
    const window = Math.floor(now / rule.windowMs);
    let c = this.counters.get(key);
    if (!c || c.window !== window) {
      const fresh: Counter = { window, endsAt: (window + 1) * rule.windowMs, shared: 0, pending: 0, flushing: 0, ready: Promise.resolve() };
      fresh.ready = sharedRateCount(this.db, key, window).then(
        (n) => {
          fresh.shared = Math.max(fresh.shared, n);
        },
        () => undefined, // no database: limit on local counts (requests then fail on the database anyway)
      );
      this.counters.set(key, (c = fresh));
    }
    await c.ready;
    if (c.shared + c.flushing + c.pending >= rule.limit) {
      const retryS = Math.max(1, Math.ceil(((window + 1) * rule.windowMs - now) / 1000));
      throw new AppError('rate_limited', `Too many requests for this ${key.split(':')[0]}; retry after ${retryS} s.`, undefined, {
        'Retry-After': String(retryS),
      });
    }
    c.pending++;
  }

  private sync(): Promise<void> {
    return (this.syncing ??= this.flush().finally(() => (this.syncing = null)));
  }

  private async flush(): Promise<void> {
    const batch: { key: string; window: number; count: number; endsAt: Date }[] = [];
    const now = Date.now();
    for (const [key, c] of this.counters) {
      if (c.pending) batch.push({ key, window: c.window, count: c.pending, endsAt: new Date(c.endsAt) });
      else if (c.endsAt < now) this.counters.delete(key); // its window is over
    }
    if (!batch.length) return;
    for (const b of batch) {
      const c = this.counters.get(b.key)!;
      c.pending -= b.count;
      c.flushing += b.count;
    }
    try {
      const totals = await addRateCounts(this.db, batch);
      for (const t of totals) {
        const c = this.counters.get(t.key);
        if (c && c.window === t.window) c.shared = Math.max(c.shared, t.count); // includes what was flushing
      }
      for (const b of batch) {
        const c = this.counters.get(b.key);
        if (c && c.window === b.window) c.flushing -= b.count;
      }
    } catch (e) {
      // Keep the counts: they are added at the next sync.
      for (const b of batch) {
        const c = this.counters.get(b.key);
        if (c && c.window === b.window) {
          c.flushing -= b.count;
          c.pending += b.count;
        }
      }
      this.log.debug({ err: (e as Error).message }, 'rate limit sync failed; limiting on local counts');
    }
  }

  /** Removes shared counters of past windows (called by the sweeper). */
  purge(): Promise<number> {
    return purgeRateCounts(this.db);
  }
}

/**
 * Concurrent long-polls per key in this process. Long-polls hold connections of this process, so the cap
 * is per process, like the connections themselves.
 */
export class ConcurrencyCap {
  private readonly open = new Map<string, number>();

  /** Reserves one of `max` slots for `key` or throws 429; call the returned release when the request ends. */
  acquire(key: string, max: number): () => void {
    const n = this.open.get(key) ?? 0;
    if (n >= max) {
      throw new AppError('rate_limited', `Too many concurrent long-polls for this ${key.split(':')[0]}.`, undefined, {
        'Retry-After': '1',
      });
    }
    this.open.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left <= 0) this.open.delete(key);
      else this.open.set(key, left);
    };
  }
}
