import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/knex';
import type { Logger } from '../../logger';
import * as repo from '../../db/webhooks';
import type { Slots } from './slots';

// The claimers of one process (src/jobs/webhooks/workers.ts says how they fit in): per account, a claimer claims
// due deliveries with a lease, as many as the account has room for, and starts one attempt each in a slot.
//
// A claim asks for the room the account has in this process (its cap minus its attempts here, minus what claims
// under way asked for); claims overlap (up to MAX_CLAIMS), so an attempt ending during a claim's round trip does not
// wait for it. A call that finds no room or too many claims under way is remembered (`again`) and served when one
// ends. Not lib/batches: what a claim takes is the account's room when it starts, and a call without room waits
// for an attempt to end.

/** Deliveries named by jobs that a claimer remembers per account; beyond, the database's queue has them. */
const MAX_NAMED = 500;
/** Claims of one account under way at once in a process (they take turns on its lock in the database). */
const MAX_CLAIMS = 1;

/** An account's claimer in this process: what jobs named, and the claims under way. */
class Claimer {
  readonly named = new Set<string>();
  /** Claims under way, and the deliveries they asked for together. */
  calls = 0;
  asking = 0;
  /** A call found no room or too many claims under way: the next claim to end calls again. */
  again = false;
}

export interface ClaimerSettings {
  db: Db;
  log: Logger;
  slots: Slots;
  caps: repo.InFlightCaps;
  leaseMs: number;
  /** One claimed delivery's attempt: the signed request, then its outcome (never throws). */
  attempt(claimed: repo.Claimed): Promise<void>;
}

export class Claimers {
  private readonly claimers = new Map<string, Claimer>();
  /** This process's attempts in flight per account (the room a claim asks for is the cap minus these). */
  private readonly attempts = new Map<string, number>();
  /** Attempts (each holding a slot), and claims under way: idle() waits for all of them. */
  private readonly inflight = new Set<Promise<void>>();
  private readonly claiming = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly s: ClaimerSettings) {}

  /** The account may have deliveries due (`deliveryId` one of them, named by a job): claim what it has room for. */
  claim(accountId: string, deliveryId?: string): void {
    if (this.stopped) return;
    let c = this.claimers.get(accountId);
    if (!c) this.claimers.set(accountId, (c = new Claimer()));
    if (deliveryId && c.named.size < MAX_NAMED) c.named.add(deliveryId);
    const room = this.s.caps.perAccount - (this.attempts.get(accountId) ?? 0) - c.asking;
    if (room <= 0 || c.calls >= MAX_CLAIMS) {
      // An attempt of the account ending here, or a claim under way, calls again (named deliveries wait).
      c.again = true;
      return;
    }
    c.calls++;
    const claimer = c;
    const p = this.claimRound(accountId, claimer, room)
      .catch((e) => {
        this.s.log.warn({ err: (e as Error).message, accountId }, 'webhook claim failed; the rescue will try again');
        return false;
      })
      .then((full) => {
        this.claiming.delete(p);
        claimer.calls--;
        // All it asked for: there may be more. Otherwise only if someone called meanwhile.
        if (full || claimer.again) {
          claimer.again = false;
          this.claim(accountId);
        } else if (claimer.calls === 0 && claimer.named.size === 0 && this.claimers.get(accountId) === claimer) {
          this.claimers.delete(accountId);
        }
      });
    this.claiming.add(p);
  }

  /** A job from before the caps (no account named): claimed on its own, within the caps. */
  async claimLegacy(deliveryId: string): Promise<void> {
    await this.s.slots.acquire();
    let claimed: repo.Claimed | undefined;
    try {
      if (!this.stopped) claimed = await repo.claimDelivery(this.s.db, deliveryId, this.s.leaseMs, randomUUID(), this.s.caps);
    } finally {
      if (!claimed) this.s.slots.release();
    }
    if (claimed) this.start(claimed);
  }

  /** No further claims; resolves once the attempts and claims under way have ended (those they start too). */
  async stop(): Promise<void> {
    this.stopped = true;
    while (this.inflight.size || this.claiming.size) await Promise.allSettled([...this.inflight, ...this.claiming]);
  }

  /** Runs one claimed delivery's attempt in a slot the caller took, tracked until it gives the slot back. */
  private start(claimed: repo.Claimed): void {
    const accountId = claimed.delivery.accountId;
    this.countAttempt(accountId, 1);
    const p = this.s.attempt(claimed).finally(() => {
      this.inflight.delete(p);
      this.s.slots.release();
      this.countAttempt(accountId, -1);
      // A place of the account's share is free: its next delivery, if one waits (in this or another process).
      this.claim(accountId);
    });
    this.inflight.add(p);
  }

  private countAttempt(accountId: string, d: 1 | -1): void {
    const n = (this.attempts.get(accountId) ?? 0) + d;
    if (n > 0) this.attempts.set(accountId, n);
    else this.attempts.delete(accountId);
  }

  /** One claim of up to `room` deliveries of the account; true when it got all it asked for. */
  private async claimRound(accountId: string, c: Claimer, room: number): Promise<boolean> {
    const { slots } = this.s;
    c.asking += room;
    let got = 0;
    let claimed: repo.Claimed[] = [];
    try {
      got = slots.tryAcquire(room);
      if (got === 0) {
        await slots.acquire();
        got = 1 + slots.tryAcquire(room - 1);
      }
      // As many named deliveries as the claim may take: each costs a lookup under the account's claim lock,
      // and most of a backlog's are the due deliveries the claim finds anyway. The others wait for the next claim.
      const named: string[] = [];
      for (const id of c.named) {
        if (named.length >= got) break;
        named.push(id);
        c.named.delete(id);
      }
      if (!this.stopped) claimed = await repo.claimDeliveries(this.s.db, accountId, named, got, this.s.leaseMs, this.s.caps);
    } finally {
      c.asking -= room;
      for (let i = claimed.length; i < got; i++) slots.release();
    }
    for (const one of claimed) this.start(one);
    // Fewer than asked: the caps (here or in another process) or nothing due. Named deliveries not taken are
    // at a cap, held, done or not due: a later claim of the account finds them when it can.
    return got > 0 && claimed.length === got;
  }
}
