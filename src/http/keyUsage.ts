import { recordKeyUse } from '../db/apiKeysRepo';
import type { Db } from '../db/knex';
import type { Logger } from '../logger';

/**
 * When each API key was last used (preview `lastUsedAt`, docs/keys.md), without a database write per request: this
 * process asks at most once a minute per key, beside the request (never awaited by it), and the update changes the
 * key's row only when the use it holds is a minute old or more (apiKeysRepo.ts, `recordKeyUse`). So `lastUsedAt` is
 * behind a key's latest request by less than a minute in one process, less than two with several. A failure is
 * logged, never the request's.
 */
export class KeyUsage {
  static readonly EVERY_MS = 60_000;
  private static readonly MAX = 10_000;
  /** Key id -> when this process last asked to record its use. */
  private readonly asked = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  /** The key authenticated a request now. */
  used(keyId: string): void {
    const now = Date.now();
    const last = this.asked.get(keyId);
    if (last !== undefined && now - last < KeyUsage.EVERY_MS) return;
    if (this.asked.size >= KeyUsage.MAX) this.asked.clear(); // then at most one query more per key: no write
    this.asked.set(keyId, now);
    recordKeyUse(this.db, keyId).catch((e: unknown) =>
      this.log.warn({ err: (e as Error).message, keyId }, 'could not record the use of an API key'),
    );
  }
}
