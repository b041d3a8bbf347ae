import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from './ids';

// An API key is `pgk_<keyId>_<secret>`: the key id lets us find the row without scanning, the secret
// (256 bits) is stored only as its SHA-256 (a slow hash adds nothing for a secret of this entropy) and
// compared in constant time.

export type KeyType = 'partner' | 'wallet';

export interface IssuedKey {
  keyId: string;
  apiKey: string;
  secretHash: Buffer;
}

const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

export function issueKey(): IssuedKey {
  const idPart = randomBase62(16);
  const secret = randomBase62(43);
  return { keyId: `key_${idPart}`, apiKey: `pgk_${idPart}_${secret}`, secretHash: hashSecret(secret) };
}

/** Splits a presented key; null when it cannot be one of ours. */
export function parseKey(presented: string): { keyId: string; secret: string } | null {
  const m = /^pgk_([0-9A-Za-z]{16})_([0-9A-Za-z]{43})$/.exec(presented);
  return m ? { keyId: `key_${m[1]}`, secret: m[2] } : null;
}

export function secretMatches(secret: string, storedHash: Buffer): boolean {
  const h = hashSecret(secret);
  return h.length === storedHash.length && timingSafeEqual(h, storedHash);
}

/** An app's client id (`pgc_<secret>`): shown once, stored as its SHA-256 like an API key's secret. */
export function issueClientId(): { clientId: string; clientHash: Buffer } {
  const secret = randomBase62(43);
  return { clientId: `pgc_${secret}`, clientHash: hashSecret(secret) };
}

export function clientIdMatches(presented: string, storedHash: Buffer): boolean {
  const m = /^pgc_([0-9A-Za-z]{43})$/.exec(presented);
  return m ? secretMatches(m[1], storedHash) : false;
}
