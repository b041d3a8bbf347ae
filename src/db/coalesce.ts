/**
 * Coalesces concurrent calls into batches run by one statement each: a call made while `running` batches are
 * under way waits, and the calls waiting when one of them ends go together as the next batch (at most `max`).
 * Nothing waits on a timer: a call made while fewer than `running` batches are under way goes at once, alone
 * or with whatever is waiting. Under load that means one round trip, one plan execution and one commit for
 * several calls instead of one each.
 *
 * `run` answers its items' outcomes in their order; it should do nothing after its statement that could fail
 * (what each caller makes of its outcome is the caller's). When a batch of several fails, its items are run
 * again one at a time, in the batch's slot (so never more than `running` statements at once), so that a failure
 * belongs to the call that caused it; unless `everyones(error)` says the failure is every call's alike (the
 * database cannot be reached): then the calls of the batch not yet answered get it at once, and so do the calls
 * waiting for a batch, which would otherwise wait for the same database again (a caller is answered within one
 * wait for the database, not two).
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

  const attempt = async (batch: Waiting[]): Promise<unknown> => {
    try {
      const out = await run(batch.map((w) => w.item));
      if (out.length !== batch.length) throw new Error(`coalescing: ${batch.length} items, ${out.length} outcomes`);
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
    if (everyones(e)) return failWithWaiting(batch, e);
    if (batch.length === 1) return batch[0].reject(e);
    for (const [i, w] of batch.entries()) {
      const alone = await attempt([w]);
      if (alone === undefined) continue;
      if (everyones(alone)) return failWithWaiting(batch.slice(i), alone);
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
