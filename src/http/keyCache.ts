import type { StoredKey } from '../db/accountsRepo';

/**
 * Verified API keys, per process, so that a request does not pay a query to authenticate. An entry lives
 * at most TTL_MS and is trusted only while the process listens for revocations (ChangeHub): a revocation is
 * announced on NOTIFY api_key_revoked and drops the entry in every process at once; when the listening
 * connection is lost or comes back, the whole cache is dropped, and until it listens again every request
 * reads its key. Each revocation notice (and each loss or return of the listener) starts a new epoch: a key
 * read from the database in an earlier epoch is not cached, since the read may predate a revocation whose
 * notice arrived while it ran. The secret is still checked against the stored hash on every request.
 *
 * Also the ids of keys and apps found unknown or revoked, for UNKNOWN_TTL_MS: a client sending one again
 * (a stale or made-up credential in a loop) is refused without a query. Ids are random and issued new, and a
 * revocation is final, so no credential becomes valid while its id is listed. At most MAX_UNKNOWN are held,
 * the oldest forgotten first, so a flood of made-up ids neither grows the process nor evicts verified keys.
 */
export class KeyCache {
  static readonly TTL_MS = 5000;
  private static readonly MAX = 10_000;
  private static readonly UNKNOWN_TTL_MS = 30_000;
  private static readonly MAX_UNKNOWN = 10_000;
  private readonly entries = new Map<string, { key: StoredKey; until: number }>();
  private readonly unknown = new Map<string, number>();
  private epoch = 0;

  /** `listening`: whether revocation notices are being received right now. */
  constructor(private readonly listening: () => boolean) {}

  get(keyId: string): StoredKey | undefined {
    if (!this.listening()) return undefined;
    const e = this.entries.get(keyId);
    if (!e) return undefined;
    if (e.until < Date.now()) {
      this.entries.delete(keyId);
      return undefined;
    }
    return e.key;
  }

  /** Taken before reading a key from the database; `set` keeps the key only if no notice came meanwhile. */
  ticket(): number {
    return this.epoch;
  }

  set(key: StoredKey, ticket: number): void {
    if (ticket !== this.epoch || !this.listening()) return;
    if (this.entries.size >= KeyCache.MAX) this.entries.clear();
    this.entries.set(key.id, { key, until: Date.now() + KeyCache.TTL_MS });
  }

  /** A revoked key id, or null: revocations may have been missed (the listener was lost or is back). */
  revoke(keyId: string | null): void {
    this.epoch++;
    if (keyId === null) this.entries.clear();
    else this.entries.delete(keyId);
  }

  /** Whether the key or app id was found unknown or revoked a short while ago. */
  isUnknown(id: string): boolean {
    const until = this.unknown.get(id);
    if (until === undefined) return false;
    if (until >= Date.now()) return true;
    this.unknown.delete(id);
    return false;
  }

  /** Remembers a key or app id the database does not know, or knows revoked. */
  setUnknown(id: string): void {
    this.unknown.delete(id);
    if (this.unknown.size >= KeyCache.MAX_UNKNOWN) this.unknown.delete(this.unknown.keys().next().value!);
    this.unknown.set(id, Date.now() + KeyCache.UNKNOWN_TTL_MS);
  }
}
