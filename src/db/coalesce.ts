/**
 * Coalesces concurrent calls into batches run by one statement each: a call made while `running` batches are
 * under way waits, and the calls waiting when one of them ends go together as the next batch (at most `max`).
 * Nothing waits on a timer: a call made while fewer than `running` batches are under way goes at once, alone
 * or with whatever is waiting. Under load that means one round trip, one plan execution and one commit for
 * several calls instead of one each.
 *
 * `run` answers its items' outcomes in their order. When a batch of several fails, each of its items is run
 * again alone, so that a failure belongs to the call that caused it; unless `everyones(error)` says the failure
 * is every item's alike (the database unavailable): then every call of the batch gets it at once, and so do the
 * calls waiting for it to end, which would otherwise wait for the same database again (a caller is answered
 * within one wait for the database, not two).
 */
export function coalescing<T, R>(
  run: (items: T[]) => Promise<R[]>,
  { running, max, everyones }: { running: number; max: number; everyones: (e: unknown) => boolean },
): Coalesced<T, R> {
  interface Waiting {
    item: T;
    resolve: (r: R) => void;
    reject: (e: unknown) => void;
  }
  let queue: Waiting[] = [];
  let underWay = 0;

  const settle = async (batch: Waiting[]): Promise<void> => {
    try {
      const out = await run(batch.map((w) => w.item));
      if (out.length !== batch.length) throw new Error(`coalescing: ${batch.length} items, ${out.length} outcomes`);
      batch.forEach((w, i) => w.resolve(out[i]));
    } catch (e) {
      if (everyones(e)) {
        const waited = queue;
        queue = [];
        for (const w of [...batch, ...waited]) w.reject(e);
      } else if (batch.length === 1) batch[0].reject(e);
      else await Promise.all(batch.map((w) => settle([w])));
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
  };
  const call = (item: T) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      next();
    });
  return Object.assign(call, { waiting: () => queue.length });
}

/** A coalesced call; `waiting()` counts the calls waiting for a batch to go in. */
export type Coalesced<T, R> = ((item: T) => Promise<R>) & { waiting(): number };
