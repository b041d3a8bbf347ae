import { KeyCache } from '../../src/http/keyCache';
import type { StoredKey } from '../../src/db/accountsRepo';

// The per-process API key cache trusts an entry only while revocation notices arrive, and never keeps a
// key read before a notice that came in while the read ran.

const key = (id: string): StoredKey => ({
  id,
  accountId: 'acct_1',
  mode: 'live',
  type: 'partner',
  secretHash: Buffer.alloc(32),
  revokedAt: null,
  readOnly: false,
  expiresAt: null,
  merchantIds: null,
  defaultVersion: '2026-02-18',
});

describe('KeyCache', () => {
  it('serves a key set with the current ticket; a revocation drops it', () => {
    const cache = new KeyCache(() => true);
    cache.set(key('key_a'), cache.ticket());
    expect(cache.get('key_a')?.id).toBe('key_a');
    cache.revoke('key_a');
    expect(cache.get('key_a')).toBeUndefined();
  });

  it('does not keep a key read before a revocation notice that arrived during the read', () => {
    const cache = new KeyCache(() => true);
    const ticket = cache.ticket(); // the read starts
    cache.revoke('key_a'); // the notice arrives before the read's answer
    cache.set(key('key_a'), ticket);
    expect(cache.get('key_a')).toBeUndefined();
    cache.set(key('key_a'), cache.ticket()); // a read begun after the notice is kept
    expect(cache.get('key_a')?.id).toBe('key_a');
  });

  it('neither serves nor keeps keys while the process does not listen for revocations', () => {
    let listening = true;
    const cache = new KeyCache(() => listening);
    cache.set(key('key_a'), cache.ticket());
    listening = false;
    expect(cache.get('key_a')).toBeUndefined();
    cache.set(key('key_b'), cache.ticket());
    listening = true;
    expect(cache.get('key_b')).toBeUndefined();
  });
});
