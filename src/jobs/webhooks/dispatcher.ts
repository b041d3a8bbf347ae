import type { Db } from '../../db/knex';
import type { Logger } from '../../logger';
import * as repo from '../../db/webhooks';
import { batches, type Batches } from '../../lib/batches';

// Dispatch and rescue (src/jobs/webhooks/workers.ts says how they fit in): queued payment events become delivery
// rows, whose accounts are handed to the claimers; and every second, accounts with a due delivery that nobody
// holds (its process died, or it never got a job) are handed to them too.
//
// Passes run on a timer, whenever a payment changes and when this process creates a payment; one pass at a time per
// process (lib/batches.ts): passes asked for while one runs make one more pass after it. One asked for by a change
// starts at most KICK_GAP_MS after the last one started, so that a stream of changes costs a bounded number of
// passes (each takes every undispatched event) and a single change waits for no timer.

/** Dispatch passes asked for by changes start at most this often (the timer's passes come on top). */
const KICK_GAP_MS = 10;
/** Rescue passes at most this often. */
const RESCUE_GAP_MS = 1000;
/**
 * Deliveries this process creates before it refreshes the table's statistics (repo.analyzeDeliveries: a
 * backlog is building, and the claims' plans were made when pending deliveries were rare), at most once per
 * ANALYZE_GAP_MS. With the old statistics a claim on a backlog costs ten times more (docs/performance.md).
 */
const ANALYZE_AFTER = 1000;
const ANALYZE_GAP_MS = 10_000;

export class Dispatcher {
  private stopped = false;
  private lastRescue = 0;
  private lastStart = 0;
  private kickTimer: NodeJS.Timeout | null = null;
  private readonly analyze: Analyzer;
  private readonly pass: Batches<void, void>;

  /** `claim`: an account has deliveries due (src/jobs/webhooks/claimers.ts). */
  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly leaseMs: number,
    private readonly claim: (accountId: string) => void,
  ) {
    this.analyze = new Analyzer(db, log);
    this.pass = batches(async (asks: void[]) => {
      this.lastStart = Date.now();
      if (!this.stopped) await this.dispatchAndRescue();
      return asks;
    });
  }

  /** A pass now (the timer's). */
  tick(): void {
    void this.pass();
  }

  /** A pass soon: events were written (a change, a payment created here). */
  kick(): void {
    if (this.stopped || this.kickTimer) return;
    const wait = this.lastStart + KICK_GAP_MS - Date.now();
    if (wait <= 0) {
      void this.pass();
      return;
    }
    this.kickTimer = setTimeout(() => {
      this.kickTimer = null;
      if (!this.stopped) void this.pass();
    }, wait);
    this.kickTimer.unref();
  }

  /** No further passes; resolves once a pass in progress (its jobs queued) and a statistics refresh have ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.kickTimer) clearTimeout(this.kickTimer);
    await this.pass.idle();
    await this.analyze.idle();
  }

  private async dispatchAndRescue(): Promise<void> {
    try {
      for (;;) {
        const { accounts, more, deliveries } = await repo.dispatchEvents(this.db, 200);
        this.analyze.created(deliveries);
        for (const accountId of accounts) this.claim(accountId);
        if (!more) break;
      }
      if (Date.now() - this.lastRescue > RESCUE_GAP_MS) {
        this.lastRescue = Date.now();
        for (const accountId of await repo.strandedAccounts(this.db, this.leaseMs)) this.claim(accountId);
      }
    } catch (e) {
      this.log.warn({ err: (e as Error).message }, 'webhook dispatch failed; retrying on the next tick');
    }
  }
}

/** Refreshes the deliveries table's statistics once a backlog builds (ANALYZE_AFTER), beside the dispatch. */
class Analyzer {
  private createdSince = 0;
  private last = -Infinity;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  created(deliveries: number): void {
    this.createdSince += deliveries;
    if (this.createdSince < ANALYZE_AFTER || this.running || Date.now() - this.last < ANALYZE_GAP_MS) return;
    this.createdSince = 0;
    this.last = Date.now();
    // Beside the dispatch, not in its way: claims go on meanwhile, on their old plans until it ends.
    this.running = repo
      .analyzeDeliveries(this.db)
      .catch((e) => this.log.warn({ err: (e as Error).message }, 'webhook deliveries: ANALYZE failed'))
      .finally(() => (this.running = null));
  }

  async idle(): Promise<void> {
    await this.running;
  }
}
