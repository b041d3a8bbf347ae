import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from './ids';
import type { Mode } from './mode';

// An API key is `pgk_<keyId>_<secret>`, a test key `pgk_test_<keyId>_<secret>` (docs/testmode.md): the key id
// lets us find the row without scanning, the secret (256 bits) is stored only as its SHA-256 (a slow hash adds
// nothing for a secret of this entropy) and compared in constant time.

export type KeyType = 'partner' | 'wallet';

export interface IssuedKey {
  keyId: string;
  apiKey: string;
  secretHash: Buffer;
}

const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

const modePrefix = (mode: Mode) => (mode === 'test' ? 'test_' : '');

export function issueKey(mode: Mode): IssuedKey {
  const idPart = randomBase62(16);
  const secret = randomBase62(43);
  return { keyId: `key_${idPart}`, apiKey: `pgk_${modePrefix(mode)}${idPart}_${secret}`, secretHash: hashSecret(secret) };
}

/** Splits a presented key; null when it cannot be one of ours. `mode`: what its prefix says. */
export function parseKey(presented: string): { keyId: string; secret: string; mode: Mode } | null {
  const m = /^pgk_(test_)?([0-9A-Za-z]{16})_([0-9A-Za-z]{43})$/.exec(presented);
  return m ? { keyId: `key_${m[2]}`, secret: m[3], mode: m[1] ? 'test' : 'live' } : null;
}

export function secretMatches(secret: string, storedHash: Buffer): boolean {
  const h = hashSecret(secret);
  return h.length === storedHash.length && timingSafeEqual(h, storedHash);
}

/** An app's client id (`pgc_<secret>`, `pgc_test_<secret>`): shown once, stored as its SHA-256 like a key's secret. */
export function issueClientId(mode: Mode): { clientId: string; clientHash: Buffer } {
  const secret = randomBase62(43);
  return { clientId: `pgc_${modePrefix(mode)}${secret}`, clientHash: hashSecret(secret) };
}

/** Whether the presented client id is the app's: its secret, and the mode its prefix says. */
export function clientIdMatches(presented: string, storedHash: Buffer, mode: Mode): boolean {
  const m = /^pgc_(test_)?([0-9A-Za-z]{43})$/.exec(presented);
  return m ? (m[1] ? 'test' : 'live') === mode && secretMatches(m[2], storedHash) : false;
}
