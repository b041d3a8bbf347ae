import { createHash } from 'node:crypto';
import { Counter as PromCounter, Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/knex';
import type { Logger } from '../logger';
import { AppError } from '../domain/errors';
import { isDatabaseUnavailable } from '../db/unavailable';
import { addRateCounts, purgeRateCounts, sharedRateCount } from '../db/rateLimitRepo';

// Request limits that hold across every process of the service. Counting each request in PostgreSQL would
// cost a statement per request, so each process counts locally and adds its counts to a shared counter
// (one upsert per window and key) every `syncMs`, learning the total of all processes in return. A key is
// refused once the shared total plus what this process counted since is over its limit. Overshoot is
// bounded by one sync period of the other processes' traffic; a database that cannot be reached leaves
// each process limiting on its own counts (requests then fail on the database anyway).
//
// No key can stop the others from syncing (issue 28, finding 11: one unindexable key failed the statement of
// all keys at every sync, so no count was shared and no counter was ever freed). Keys are bounded (a longer
// one is hashed); a sync statement that fails for any reason but an unreachable database is run again key by
// key, and a key PostgreSQL refuses on its own is counted in this process only (tried again a minute after
// the last refusal). A counter is freed when its window ends, whatever became of its counts. Failures are
// logged (a warning at most once a minute per scope) and counted in paygate_rate_limit_sync_failures_total;
// paygate_rate_limit_counters is what this process holds (tests/integration/clientAddress.own.test.ts).

export interface RateLimit {
  /** Requests per window. */
  limit: number;
  windowMs: number;
  /** What is counted, for the refusal's message ("Too many <what>"); by default requests of the key's kind. */
  what?: string;
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

/** Counts of one counter on their way to the shared counter. */
interface Flushed {
  key: string;
  window: number;
  count: number;
  endsAt: Date;
  counter: Counter;
}

/** Longest key stored as it is: longer ones are stored as their kind and a SHA-256 (no B-tree entry too large). */
const MAX_KEY_CHARS = 128;
/** A failure is logged at most this often per scope; keys refused on their own are tried again after it. */
const QUIET_MS = 60_000;

type FailureScope = 'batch' | 'key';

export class SharedRateLimiter {
  private readonly counters = new Map<string, Counter>();
  /** Keys PostgreSQL refused on their own, counted in this process only, until a minute after the last refusal. */
  private readonly refused = new Set<string>();
  private refusedAt = 0;
  private readonly failures: PromCounter<'scope'>;
  private readonly warnedAt: Record<FailureScope, number> = { batch: -Infinity, key: -Infinity };
  private timer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    registry: Registry,
    private readonly syncMs = 100,
  ) {
    const registers = [registry];
    this.failures = new PromCounter({
      name: 'paygate_rate_limit_sync_failures_total',
      help:
        "Failed rate-limit syncs of this process, by scope: batch (the statement adding every key's counts; the counts are kept, " +
        'or tried key by key) or key (one key refused on its own: from then on counted in this process only).',
      labelNames: ['scope'],
      registers,
    });
    for (const scope of ['batch', 'key'] as const) this.failures.labels(scope);
    const counters = this.counters;
    new Gauge({
      name: 'paygate_rate_limit_counters',
      help: 'Rate-limit counters this process holds: one per key with requests in its current window.',
      registers,
      collect() {
        this.set(counters.size);
      },
    });
  }

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
    key = bounded(key);
    const c = await this.counterOf(key, rule, now);
    if (c.shared + c.flushing + c.pending >= rule.limit) throw refusal(key, rule, now);
    c.pending++;
  }

  /**
   * Throws 429 rate_limited (with Retry-After) when `key` is over its limit across all processes, counting nothing:
   * unlike `check`, a key new to this process in this window costs a read of the shared total (sign-in limits:
   * src/http/dashboard/loginLimits.ts).
   */
  async checkShared(key: string, rule: RateLimit, now = Date.now()): Promise<void> {
    key = bounded(key);
    const c = await this.counterOf(key, rule, now);
    if (c.shared + c.flushing + c.pending >= rule.limit) throw refusal(key, rule, now);
  }

  /** The key's counter of the current window, its shared total read (once per window and process). */
  private async counterOf(key: string, rule: RateLimit, now: number): Promise<Counter> {
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
    return c;
  }

  /**
   * Throws 429 rate_limited (with Retry-After) when `key` is over its limit, counting nothing. Costs no query: a key
   * this process has not counted in the current window is not over it here (its first `take` learns the total).
   */
  async check(key: string, rule: RateLimit, now = Date.now()): Promise<void> {
    key = bounded(key);
    const c = this.counters.get(key);
    if (!c || c.window !== Math.floor(now / rule.windowMs)) return;
    await c.ready;
    if (c.shared + c.flushing + c.pending >= rule.limit) throw refusal(key, rule, now);
  }

  private sync(): Promise<void> {
    return (this.syncing ??= this.flush().finally(() => (this.syncing = null)));
  }

  private async flush(): Promise<void> {
    const batch: Flushed[] = [];
    const now = Date.now();
    if (now - this.refusedAt > QUIET_MS) this.refused.clear();
    for (const [key, c] of this.counters) {
      if (c.pending && !this.refused.has(key)) {
        batch.push({ key, window: c.window, count: c.pending, endsAt: new Date(c.endsAt), counter: c });
        c.flushing += c.pending;
        c.pending = 0;
      }
      if (c.endsAt < now) this.counters.delete(key); // its window is over: it limits nothing more, sent or not
    }
    if (!batch.length) return;
    try {
      return this.added(batch, await addRateCounts(this.db, batch));
    } catch (e) {
      this.failed('batch', e);
      if (isDatabaseUnavailable(e)) return this.keep(batch); // added at the next sync; a key alone would wait for it too
    }
    // Something in the batch: key by key, so that a key that cannot be stored fails only itself.
    for (const [i, f] of batch.entries()) {
      try {
        this.added([f], await addRateCounts(this.db, [f]));
      } catch (e) {
        if (isDatabaseUnavailable(e)) return this.keep(batch.slice(i));
        this.keep([f]);
        this.refused.add(f.key);
        this.refusedAt = Date.now();
        this.failed('key', e, f.key);
      }
    }
  }

  private added(batch: Flushed[], totals: { key: string; window: number; count: number }[]): void {
    const total = new Map(totals.map((t) => [`${t.window} ${t.key}`, t.count]));
    for (const f of batch) {
      f.counter.flushing -= f.count;
      f.counter.shared = Math.max(f.counter.shared, total.get(`${f.window} ${f.key}`) ?? 0); // includes what was flushing
    }
  }

  /** Counts that were not added stay this process's own (for its limit, and for the next sync). */
  private keep(batch: Flushed[]): void {
    for (const f of batch) {
      f.counter.flushing -= f.count;
      f.counter.pending += f.count;
    }
  }

  private failed(scope: FailureScope, e: unknown, key?: string): void {
    this.failures.labels(scope).inc();
    const now = Date.now();
    if (now - this.warnedAt[scope] < QUIET_MS) return;
    this.warnedAt[scope] = now;
    const err = (e as Error).message;
    if (scope === 'batch') this.log.warn({ err }, 'rate limit sync failed; limiting on local counts until it succeeds');
    else
      this.log.warn(
        { err, kind: key?.split(':')[0] },
        'rate limit counter refused by the database; this key is limited on local counts only',
      );
  }

  /** Removes shared counters of past windows (called by the sweeper). */
  purge(): Promise<number> {
    return purgeRateCounts(this.db);
  }
}

/** The key as stored: a longer one as its kind and a SHA-256, so that no key is too large for the index. */
function bounded(key: string): string {
  if (key.length <= MAX_KEY_CHARS) return key;
  return `${key.slice(0, key.indexOf(':'))}:sha256:${createHash('sha256').update(key).digest('base64url')}`;
}

/** 429 rate_limited, retried at the start of the next window. */
function refusal(key: string, rule: RateLimit, now: number): AppError {
  const retryS = Math.max(1, Math.ceil(((Math.floor(now / rule.windowMs) + 1) * rule.windowMs - now) / 1000));
  const what = rule.what ?? `requests for this ${key.split(':')[0]}`;
  return new AppError('rate_limited', `Too many ${what}; retry after ${retryS} s.`, undefined, { 'Retry-After': String(retryS) });
}

/**
 * Concurrent long-polls per key in this process. Long-polls hold connections of this process, so the cap
 * is per process, like the connections themselves.
 */
export class ConcurrencyCap {
  private readonly open = new Map<string, { n: number; max: number }>();

  /** Reserves one of `max` slots for `key` or throws 429; call the returned release when the request ends. */
  acquire(key: string, max: number): () => void {
    const n = this.open.get(key)?.n ?? 0;
    if (n >= max) {
      throw new AppError('rate_limited', `Too many concurrent long-polls for this ${key.split(':')[0]}.`, undefined, {
        'Retry-After': '1',
      });
    }
    this.open.set(key, { n: n + 1, max });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.open.get(key);
      if (!left || left.n <= 1) this.open.delete(key);
      else left.n -= 1;
    };
  }

  /** Per kind of key (`credential`, `ip`): the largest share of its cap any one key holds now, 0 to 1 (metrics). */
  fullest(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [key, { n, max }] of this.open) {
      const kind = key.slice(0, key.indexOf(':'));
      out.set(kind, Math.max(out.get(kind) ?? 0, n / max));
    }
    return out;
  }
}
