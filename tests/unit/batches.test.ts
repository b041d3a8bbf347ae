import { batches as batching } from '../../src/lib/batches';

// How concurrent calls are grouped into batches: the one scheduler (payment reads and creations, relayer submissions,
// chain monitors, webhook dispatch). What the batches do in PostgreSQL and on chain is tested through HTTP in
// tests/integration (payments, chain, webhooks).

/** A `run` whose batches end when the test says: each call's items are kept, with the means to end it. */
function controlled(answer: (items: number[]) => string[] = (items) => items.map((i) => `r${i}`)) {
  const batches: { items: number[]; end: (e?: Error) => Promise<void> }[] = [];
  const run = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({
        items,
        end: async (e) => {
          if (e) reject(e);
          else resolve(answer(items));
          await flush();
        },
      });
    });
  return { run, batches };
}
const flush = () => new Promise((r) => setImmediate(r));
const nobodys = () => 'alone' as const;
const down = (e: unknown) => ((e as Error).message === 'down' ? 'everyone' : 'alone');

/** One batch at a time: call 0 goes and ends; calls 1, 2 and 3 wait and go together (at most `max`). */
async function afterFirst(failure: (e: unknown) => 'alone' | 'batch' | 'everyone', max = 10) {
  const { run, batches } = controlled();
  const call = batching(run, { running: 1, max, failure });
  const first = call(0);
  const out = [1, 2, 3].map((i) => call(i).catch((e: Error) => e.message));
  await batches[0].end();
  await first;
  return { call, batches, out };
}

describe('batches', () => {
  it('a call with nothing under way goes at once, alone', async () => {
    const { run, batches } = controlled();
    const call = batching(run, { running: 1, max: 10, failure: nobodys });
    const a = call(1);
    expect(batches.map((b) => b.items)).toEqual([[1]]);
    await batches[0].end();
    await expect(a).resolves.toBe('r1');
  });

  it('calls made while `running` batches are under way wait, and go together when one ends, each getting its own answer', async () => {
    const { run, batches } = controlled();
    const call = batching(run, { running: 2, max: 10, failure: nobodys });
    const out = [1, 2, 3, 4, 5].map((i) => call(i));
    expect(batches.map((b) => b.items)).toEqual([[1], [2]]);
    expect(call.waiting()).toBe(3);
    await batches[1].end();
    expect(batches.map((b) => b.items)).toEqual([[1], [2], [3, 4, 5]]);
    expect(call.waiting()).toBe(0);
    await batches[0].end();
    await batches[2].end();
    await expect(Promise.all(out)).resolves.toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
  });

  it('a batch takes at most `max` calls; the rest go in the next', async () => {
    const { run, batches } = controlled();
    const call = batching(run, { running: 1, max: 2, failure: nobodys });
    const out = [1, 2, 3, 4, 5, 6].map((i) => call(i));
    await batches[0].end();
    await batches[1].end();
    await batches[2].end();
    await batches[3].end();
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3], [4, 5], [6]]);
    await expect(Promise.all(out)).resolves.toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
  });

  it("a batch of several that fails is run again one call at a time, in its slot: a failure is only its own call's", async () => {
    const { call, batches, out } = await afterFirst(nobodys);
    await batches[1].end(new Error('one of them'));
    // One at a time, and a call made meanwhile waits for them (the batch's slot is still taken).
    const later = call(4);
    expect(batches.slice(2).map((b) => b.items)).toEqual([[1]]);
    await batches[2].end();
    expect(batches.slice(2).map((b) => b.items)).toEqual([[1], [2]]);
    await batches[3].end(new Error('2 failed'));
    await batches[4].end();
    await expect(Promise.all(out)).resolves.toEqual(['r1', '2 failed', 'r3']);
    expect(batches.slice(2).map((b) => b.items)).toEqual([[1], [2], [3], [4]]);
    await batches[5].end();
    await expect(later).resolves.toBe('r4');
  });

  it('an `everyone` failure while the calls of a failed batch run alone reaches those not yet answered, and those waiting', async () => {
    const { call, batches, out } = await afterFirst(down);
    await batches[1].end(new Error('one of them'));
    const later = call(4).catch((e: Error) => e.message);
    await batches[2].end();
    await batches[3].end(new Error('down'));
    await expect(Promise.all([...out, later])).resolves.toEqual(['r1', 'down', 'down', 'down']);
    expect(batches.map((b) => b.items)).toEqual([[0], [1, 2, 3], [1], [2]]);
  });

  it("an 'everyone' failure (the database unavailable) reaches every call of the batch, and those waiting, at once and without a retry", async () => {
    const { call, batches, out } = await afterFirst(down, 2);
    expect(call.waiting()).toBe(1);
    await batches[1].end(new Error('down'));
    await expect(Promise.all(out)).resolves.toEqual(['down', 'down', 'down']);
    expect(batches.map((b) => b.items)).toEqual([[0], [1, 2]]);
    expect(call.waiting()).toBe(0);
    // Once it is back, calls go as before.
    const after = call(4);
    await batches[2].end();
    await expect(after).resolves.toBe('r4');
  });

  it('a batch answered with the wrong number of outcomes fails, and its calls are run again alone', async () => {
    const { run, batches } = controlled((items) => (items.length > 1 ? ['only one'] : items.map((i) => `r${i}`)));
    const call = batching(run, { running: 1, max: 10, failure: nobodys });
    const first = call(0);
    const out = [1, 2].map((i) => call(i));
    await batches[0].end();
    await first;
    await batches[1].end();
    await batches[2].end();
    await batches[3].end();
    await expect(Promise.all(out)).resolves.toEqual(['r1', 'r2']);
  });

  it("a failure `failure` calls 'batch' reaches every call of the run, without a retry; the calls waiting go on", async () => {
    const { call, batches, out } = await afterFirst(() => 'batch', 2);
    await batches[1].end(new Error('the lock'));
    expect(batches.map((b) => b.items)).toEqual([[0], [1, 2], [3]]);
    await batches[2].end();
    await expect(Promise.all(out)).resolves.toEqual(['the lock', 'the lock', 'r3']);
    expect(call.waiting()).toBe(0);
  });

  it('`all` queues several calls together: one run takes them all when nothing is under way', async () => {
    const { run, batches } = controlled();
    const call = batching(run, { failure: nobodys });
    const out = call.all([1, 2, 3]);
    expect(batches.map((b) => b.items)).toEqual([[1, 2, 3]]);
    await batches[0].end();
    await expect(Promise.all(out)).resolves.toEqual(['r1', 'r2', 'r3']);
  });

  it('`idle` resolves once no run is under way, including the runs of calls that waited', async () => {
    const { run, batches } = controlled();
    const call = batching(run);
    await expect(call.idle()).resolves.toBeUndefined();
    void call(1);
    void call(2);
    let idle = false;
    void call.idle().then(() => (idle = true));
    await batches[0].end();
    expect(idle).toBe(false);
    expect(batches.map((b) => b.items)).toEqual([[1], [2]]);
    await batches[1].end();
    expect(idle).toBe(true);
  });
});
