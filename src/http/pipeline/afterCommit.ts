import type { Logger } from '../../logger';

/**
 * Work a handler hands on only once the request's writes are visible (e.g. delivery jobs for new rows):
 * started after the commit, or not at all when the request's writes roll back.
 */
export class AfterCommit {
  private readonly work: (() => Promise<void>)[] = [];

  constructor(
    private readonly log: Logger,
    private readonly requestId: string,
  ) {}

  add(f: () => Promise<void>): void {
    this.work.push(f);
  }

  /** Starts the work; a failure is only logged, since the rescuers pick the work up later. */
  run(): void {
    for (const f of this.work.splice(0)) {
      f().catch((e) =>
        this.log.warn({ err: (e as Error).message, requestId: this.requestId }, 'after-commit work failed; it will be rescued'),
      );
    }
  }
}
