// A seeded pseudo-random generator (mulberry32): the same seed gives the same numbers, so a soak's schedule of
// faults replays exactly from the seed it prints.

export type Rng = ReturnType<typeof seeded>;

export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** An integer in [lo, hi]. */
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    shuffle: <T>(xs: readonly T[]): T[] => {
      const out = [...xs];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
}

/** The seed of a run: SOAK_SEED, else one derived from a commit hash (so CI replays the same schedule per commit). */
export function seedOf(env: string | undefined, commit: string | null): number {
  if (env && /^\d{1,10}$/.test(env)) return Number(env) >>> 0;
  if (commit) return parseInt(commit.slice(0, 8), 16) >>> 0;
  return (Date.now() % 4294967296) >>> 0;
}
