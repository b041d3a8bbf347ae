import type { StoredKey } from '../db/accountsRepo';

/**
 * Verified API keys, per process, so that a request does not pay a query to authenticate. An entry
 * lives at most TTL_MS; a revocation is announced on NOTIFY api_key_revoked and drops the entry in every
 * process at once (the hub clears the whole cache if its listening connection was lost). The secret is
 * still checked against the stored hash on every request.
 */
export class KeyCache {
  static readonly TTL_MS = 5000;
  private static readonly MAX = 10_000;
  private readonly entries = new Map<string, { key: StoredKey; until: number }>();

  get(keyId: string): StoredKey | undefined {
    const e = this.entries.get(keyId);
    if (!e) return undefined;
    if (e.until < Date.now()) {
      this.entries.delete(keyId);
      return undefined;
    }
    return e.key;
  }

  set(key: StoredKey): void {
    if (this.entries.size >= KeyCache.MAX) this.entries.clear();
    this.entries.set(key.id, { key, until: Date.now() + KeyCache.TTL_MS });
  }

  revoke(keyId: string | null): void {
    if (keyId === null) this.entries.clear();
    else this.entries.delete(keyId);
  }
}
