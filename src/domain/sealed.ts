import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// Buyer data (travel-rule fields) and webhook signing secrets are sealed with AES-256-GCM before they
// reach the database, so a dump or a log of rows shows nothing. Each value names the key that sealed it,
// so the key can be rotated: a keyring holds the newest key (it seals) and older ones (they still open),
// and `admin keys rotate-data` re-seals old values until the older keys can be dropped.
//
// Layouts:
//   v2 (current): MAGIC (4) | id length (1) | key id (ASCII) | 12-byte IV | 16-byte tag | ciphertext,
//                 the header (magic, length, id) authenticated as additional data, so an id cannot be swapped;
//   v1 (legacy, rows written before key ids): 12-byte IV | 16-byte tag | ciphertext, no id: opened by
//                 trying each key of the ring (GCM's tag tells which one sealed it).
// A v1 value whose random IV happens to begin with MAGIC (2^-32) fails v2's authentication and is then
// opened as v1, so the two layouts can never be confused.

const MAGIC = Buffer.from([0xff, 0x70, 0x67, 0x02]); // 0xff "pg" version 2
const IV = 12;
const TAG = 16;
const KEY_ID = /^[A-Za-z0-9_.-]{1,32}$/;

export interface DataKey {
  id: string;
  key: Buffer;
}

/** The public development key: only for development and tests, never the sealing key in production. */
export const DEVELOPMENT_KEY_ID = 'dev';
const DEVELOPMENT_KEY = Buffer.alloc(32, 7);
export const developmentKey = (): DataKey => ({ id: DEVELOPMENT_KEY_ID, key: Buffer.from(DEVELOPMENT_KEY) });
export const isDevelopmentKey = (key: Buffer): boolean => key.equals(DEVELOPMENT_KEY);

/**
 * The id of a key given without one (DATA_ENCRYPTION_KEY): derived from the key itself, so the same key
 * has the same id in every process and after a restart, and a keyring that lists the key under an id of
 * its choosing still recognises values sealed under this one. Reveals nothing usable about the key.
 */
export function derivedKeyId(key: Buffer): string {
  if (isDevelopmentKey(key)) return DEVELOPMENT_KEY_ID;
  return 'k' + createHash('sha256').update('paygate data key id\0').update(key).digest('hex').slice(0, 12);
}

export const isValidKeyId = (id: string): boolean => KEY_ID.test(id);

// A Buffer handed out as `keyring.primary.key` stands for its whole keyring when passed to seal/unseal:
// code written when there was a single key (and still holding a Buffer) opens values of older keys too.
const ringOfKey = new WeakMap<Buffer, DataKeyring>();

export class DataKeyring {
  readonly primary: DataKey;
  private readonly byId = new Map<string, DataKey>();

  /** `keys[0]` seals; all open. Ids and keys must be distinct (the caller validates and says why). */
  readonly keys: readonly DataKey[];

  constructor(keys: readonly DataKey[]) {
    if (!keys.length) throw new Error('a keyring needs at least one key');
    // Copies: `primary.key` is this ring's own object, so it stands for this ring and no other.
    this.keys = keys.map((k) => ({ id: k.id, key: Buffer.from(k.key) }));
    for (const k of this.keys) {
      if (k.key.length !== 32) throw new Error(`data key ${k.id} is not 32 bytes`);
      if (!isValidKeyId(k.id)) throw new Error(`data key id ${JSON.stringify(k.id)} is not 1 to 32 of A-Z a-z 0-9 _ . -`);
      for (const id of [k.id, derivedKeyId(k.key)]) {
        const other = this.byId.get(id);
        if (other && other !== k) throw new Error(`data key id ${id} names two keys`);
        this.byId.set(id, k);
      }
    }
    this.primary = this.keys[0];
    ringOfKey.set(this.primary.key, this);
  }

  static of(key: Buffer): DataKeyring {
    return ringOfKey.get(key) ?? new DataKeyring([{ id: derivedKeyId(key), key }]);
  }

  find(id: string): DataKey | undefined {
    return this.byId.get(id);
  }

  /** True when values are sealed with the public development key. */
  get sealsWithDevelopmentKey(): boolean {
    return isDevelopmentKey(this.primary.key);
  }
}

export class UnsealError extends Error {}

const ring = (keys: DataKeyring | Buffer) => (keys instanceof DataKeyring ? keys : DataKeyring.of(keys));

/** The header of values sealed by key `id` (what `admin keys rotate-data` looks for). */
export function sealedHeader(id: string): Buffer {
  if (!isValidKeyId(id)) throw new Error('invalid data key id');
  return Buffer.concat([MAGIC, Buffer.from([id.length]), Buffer.from(id, 'ascii')]);
}

export function seal(keys: DataKeyring | Buffer, plaintext: string): Buffer {
  const { id, key } = ring(keys).primary;
  const header = sealedHeader(id);
  const iv = randomBytes(IV);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(header);
  const body = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return Buffer.concat([header, iv, c.getAuthTag(), body]);
}

/** The key id a value names (v2), or null for a legacy value without one. */
export function sealedKeyId(sealed: Buffer): string | null {
  if (sealed.length < MAGIC.length + 1 + IV + TAG || !sealed.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  const n = sealed[MAGIC.length];
  const id = sealed.subarray(MAGIC.length + 1, MAGIC.length + 1 + n).toString('latin1');
  return n >= 1 && sealed.length >= MAGIC.length + 1 + n + IV + TAG && isValidKeyId(id) ? id : null;
}

function open(key: Buffer, aad: Buffer | null, rest: Buffer): string | null {
  try {
    const d = createDecipheriv('aes-256-gcm', key, rest.subarray(0, IV));
    if (aad) d.setAAD(aad);
    d.setAuthTag(rest.subarray(IV, IV + TAG));
    return Buffer.concat([d.update(rest.subarray(IV + TAG)), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** Opens a value of either layout; UnsealError (naming the key id, never a key) when no key of the ring opens it. */
export function unseal(keys: DataKeyring | Buffer, sealed: Buffer): string {
  const r = ring(keys);
  const id = sealedKeyId(sealed);
  if (id !== null) {
    const k = r.find(id);
    const header = sealedHeader(id);
    const text = k ? open(k.key, header, sealed.subarray(header.length)) : null;
    if (text !== null) return text;
  }
  for (const k of r.keys) {
    const text = open(k.key, null, sealed);
    if (text !== null) return text;
  }
  throw new UnsealError(
    id !== null
      ? `a value sealed with data key "${id}" cannot be opened: that key is not in the keyring (DATA_ENCRYPTION_KEYS) or the value is damaged`
      : 'a value sealed without a key id cannot be opened by any key of the keyring (DATA_ENCRYPTION_KEYS)',
  );
}
