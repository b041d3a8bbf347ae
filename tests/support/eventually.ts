/**
 * Reads `read()` until `ok` holds or `ms` pass, then returns the last value: the test's own assertion
 * on it says what was expected (and fails with the value seen).
 */
export async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
