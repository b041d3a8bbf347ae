import { randomBytes } from 'node:crypto';

// Opaque, random, URL-safe identifiers (docs/decisions.md "Identifiers and amounts": not guessable, not sequential).
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Random bytes are drawn from the CSPRNG in blocks: one getrandom call per 4 KiB instead of one per id
// (one call per id showed up in CPU profiles of hot endpoints). Each byte is used once.
const BLOCK = 4096;
let pool = randomBytes(BLOCK);
let offset = 0;

function nextByte(): number {
  if (offset === BLOCK) {
    pool = randomBytes(BLOCK);
    offset = 0;
  }
  return pool[offset++];
}

/** `length` base62 characters (rejection sampling keeps them uniform). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const b = nextByte();
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

export type IdPrefix =
  'mrch' | 'pay' | 'opt' | 'crypto' | 'evt' | 'we' | 'whd' | 'wha' | 'req' | 'acct' | 'key' | 'app' | 'ref' | 'aud' | 'dsu' | 'dsi';

/** 22 base62 characters carry ~131 bits of randomness. */
export const newId = (prefix: IdPrefix): string => `${prefix}_${randomBase62(22)}`;

/**
 * Whether `text` could be a stored id at all. PostgreSQL text cannot hold NUL (a query with one fails
 * with 22021), so no stored id contains it: lookups answer "not found" for such an id without asking
 * the database, as for any other unknown id (the spec allows any text in id parameters).
 */
export const canBeStoredId = (text: string): boolean => !text.includes('\u0000');
