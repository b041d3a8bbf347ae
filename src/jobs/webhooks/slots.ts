/** Slots handed out in the order they were asked for. */
export class Slots {
  private free: number;
  private waiters: (() => void)[] = [];
  constructor(size: number) {
    this.free = size;
  }
  acquire(): Promise<void> {
    if (this.free > 0 && this.waiters.length === 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((r) => this.waiters.push(r));
  }
  /** Takes up to `n` slots that are free now (none while others wait); returns how many. */
  tryAcquire(n: number): number {
    if (this.waiters.length) return 0;
    const got = Math.max(0, Math.min(n, this.free));
    this.free -= got;
    return got;
  }
  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.free++;
  }
}
