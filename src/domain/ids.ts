import { randomBytes } from 'node:crypto';

// Opaque, random, URL-safe identifiers (API-DECISIONS: not guessable, not sequential).
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 text of `bytes` random bytes (rejection sampling keeps it uniform). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += ALPHABET[b % 62];
    }
  }
  return out;
}

export type IdPrefix = 'mrch' | 'pay' | 'opt' | 'crypto' | 'evt' | 'we' | 'req' | 'acct' | 'key' | 'app';

/** 22 base62 characters carry ~131 bits of randomness. */
export const newId = (prefix: IdPrefix): string => `${prefix}_${randomBase62(22)}`;
