/**
 * The one scheduler of the service: "one at a time, batch whatever waited meanwhile". A call made while fewer
 * than `running` runs are under way goes at once, alone or with whatever is waiting; a call made while `running`
 * runs are under way waits, and the calls waiting when one of them ends go together as the next run (at most
 * `max`). Nothing waits on a timer. Payment reads and creations (one statement for several calls), a relayer
 * key's submissions (one nonce lock and one commit per batch), the chain monitors and the webhook dispatch passes
 * (a pass asked for during a pass is one more pass, however many asked) all run on it.
 *
 * `run` answers its items' outcomes in their order; it should do nothing after its work that could fail (what
 * each caller makes of its outcome is the caller's). When a run of several fails, `failure(error)` says whose the
 * failure is:
 * - 'alone' (the default): the run's items are run again one at a time, in the run's slot (so never more than
 *   `running` runs at once), so that a failure belongs to the call that caused it;
 * - 'batch': every call of the run gets it;
 * - 'everyone': the calls of the run not yet answered get it at once, and so do the calls waiting for a run,
 *   which would otherwise wait for the same failure again (the database cannot be reached: a caller is answered
 *   within one wait for it, not two).
 * While items run alone, an 'everyone' failure still reaches the rest and those waiting; any other is the item's.
 */
export function batches<T, R>(run: (items: T[]) => Promise<R[]>, options: BatchOptions = {}): Batches<T, R> {
  const { running = 1, max = Infinity, failure = () => 'alone' } = options;
  interface Waiting {
    item: T;
    resolve: (r: R) => void;
    reject: (e: unknown) => void;
  }
  let queue: Waiting[] = [];
  let underWay = 0;
  let idle: { promise: Promise<void>; resolve: () => void } | null = null;

  const attempt = async (batch: Waiting[]): Promise<unknown> => {
    try {
      const out = await run(batch.map((w) => w.item));
      if (out.length !== batch.length) throw new Error(`batches: ${batch.length} items, ${out.length} outcomes`);
      batch.forEach((w, i) => w.resolve(out[i]));
      return undefined;
    } catch (e) {
      return e;
    }
  };
  const failWithWaiting = (calls: Waiting[], e: unknown): void => {
    const waited = queue;
    queue = [];
    for (const w of [...calls, ...waited]) w.reject(e);
  };
  const settle = async (batch: Waiting[]): Promise<void> => {
    const e = await attempt(batch);
    if (e === undefined) return;
    const whose = failure(e);
    if (whose === 'everyone') return failWithWaiting(batch, e);
    if (batch.length === 1 || whose === 'batch') return batch.forEach((w) => w.reject(e));
    for (const [i, w] of batch.entries()) {
      const alone = await attempt([w]);
      if (alone === undefined) continue;
      if (failure(alone) === 'everyone') return failWithWaiting(batch.slice(i), alone);
      w.reject(alone);
    }
  };
  const next = (): void => {
    while (underWay < running && queue.length > 0) {
      const batch = queue.length <= max ? queue : queue.slice(0, max);
      queue = queue.length <= max ? [] : queue.slice(max);
      underWay++;
      void settle(batch).finally(() => {
        underWay--;
        next();
      });
    }
    if (underWay === 0 && idle) {
      idle.resolve();
      idle = null;
    }
  };
  const add = (item: T) => new Promise<R>((resolve, reject) => queue.push({ item, resolve, reject }));
  const call = (item: T) => {
    const out = add(item);
    next();
    return out;
  };
  return Object.assign(call, {
    all: (items: T[]) => {
      const out = items.map(add);
      next();
      return out;
    },
    waiting: () => queue.length,
    idle: () => {
      if (underWay === 0) return Promise.resolve();
      if (!idle) {
        let resolve!: () => void;
        const promise = new Promise<void>((r) => (resolve = r));
        idle = { promise, resolve };
      }
      return idle.promise;
    },
  });
}

export interface BatchOptions {
  /** Runs under way at once (1: one at a time). */
  running?: number;
  /** Calls in one run at most. */
  max?: number;
  /** Whose a failed run's failure is (see batches). */
  failure?: (e: unknown) => 'alone' | 'batch' | 'everyone';
}

/**
 * A batched call. `all(items)` queues several together (one run takes them all, unless they are more than `max`);
 * `waiting()` counts the calls waiting for a run; `idle()` resolves once no run is under way.
 */
export type Batches<T, R> = ((item: T) => Promise<R>) & {
  all(items: T[]): Promise<R>[];
  waiting(): number;
  idle(): Promise<void>;
};
