import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// Buyer data (travel-rule fields) and webhook signing secrets are sealed with AES-256-GCM before they
// reach the database, so a dump or a log of rows shows nothing. Each value names the key that sealed it,
// so the key can be rotated: a keyring holds the newest key (it seals) and older ones (they still open),
// and `admin keys rotate-data` re-seals old values until the older keys can be dropped. Each value is also
// bound to where it is stored (table, column, row): copied into another row or column, it does not open,
// so whoever can write to the database cannot hand one buyer's data or one endpoint's secret to another.
//
// Layouts:
//   v3 (current): MAGIC3 (4) | id length (1) | key id (ASCII) | 12-byte IV | 16-byte tag | ciphertext,
//                 authenticated with the header and the place (SealedAt) as additional data;
//   v2 (legacy, before places): the same with MAGIC2, only the header authenticated;
//   v1 (legacy, rows written before key ids): 12-byte IV | 16-byte tag | ciphertext, no id: opened by
//                 trying each key of the ring (GCM's tag tells which one sealed it).
// SHIM(sealed-legacy): legacy values open wherever they are until `admin keys rotate-data` re-seals them as v3
// (docs/upgrading.md). A v3 value relabelled as v2 fails v2's authentication (its additional data differs), and
// a v1 value whose random IV happens to begin with a magic (2^-32) fails that layout's authentication and is
// then opened as v1, so the layouts can never be confused.

/** Where a sealed value is stored: its seal authenticates this, and it opens only here. */
export interface SealedAt {
  table: string;
  column: string;
  /** The row's primary key (its columns' values, in order). */
  row: readonly string[];
}

const MAGIC = Buffer.from([0xff, 0x70, 0x67, 0x03]); // 0xff "pg" version 3
const MAGIC2 = Buffer.from([0xff, 0x70, 0x67, 0x02]);
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

const header = (magic: Buffer, id: string) => Buffer.concat([magic, Buffer.from([id.length]), Buffer.from(id, 'ascii')]);

/** The header of values sealed by key `id` now (what `admin keys rotate-data` looks for). */
export function sealedHeader(id: string): Buffer {
  if (!isValidKeyId(id)) throw new Error('invalid data key id');
  return header(MAGIC, id);
}

/** The place as additional data: JSON of strings, so no two places have the same bytes. */
const placeOf = (at: SealedAt) => Buffer.from(JSON.stringify([at.table, at.column, ...at.row]), 'utf8');

export function seal(keys: DataKeyring | Buffer, plaintext: string, at: SealedAt): Buffer {
  const { id, key } = ring(keys).primary;
  const head = sealedHeader(id);
  const iv = randomBytes(IV);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.concat([head, placeOf(at)]));
  const body = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return Buffer.concat([head, iv, c.getAuthTag(), body]);
}

/** The layout and key id a value's header names, or null for a legacy value without one. */
function parseHeader(sealed: Buffer): { magic: Buffer; id: string } | null {
  const magic = [MAGIC, MAGIC2].find((m) => sealed.subarray(0, m.length).equals(m));
  if (!magic || sealed.length < magic.length + 1 + IV + TAG) return null;
  const n = sealed[magic.length];
  const id = sealed.subarray(magic.length + 1, magic.length + 1 + n).toString('latin1');
  return n >= 1 && sealed.length >= magic.length + 1 + n + IV + TAG && isValidKeyId(id) ? { magic, id } : null;
}

/** The key id a value names, or null for a legacy value without one. */
export function sealedKeyId(sealed: Buffer): string | null {
  return parseHeader(sealed)?.id ?? null;
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

/**
 * Opens a value of any layout stored at `at`; UnsealError (naming the key id, never a key) when no key of
 * the ring opens it there.
 */
export function unseal(keys: DataKeyring | Buffer, sealed: Buffer, at: SealedAt): string {
  const r = ring(keys);
  const h = parseHeader(sealed);
  if (h !== null) {
    const k = r.find(h.id);
    const head = header(h.magic, h.id);
    const aad = h.magic === MAGIC ? Buffer.concat([head, placeOf(at)]) : head;
    const text = k ? open(k.key, aad, sealed.subarray(head.length)) : null;
    if (text !== null) return text;
  }
  for (const k of r.keys) {
    const text = open(k.key, null, sealed);
    if (text !== null) return text;
  }
  throw new UnsealError(
    h !== null
      ? `a value sealed with data key "${h.id}" cannot be opened: that key is not in the keyring (DATA_ENCRYPTION_KEYS), the value is damaged, or it was sealed for another place than ${at.table}.${at.column}`
      : 'a value sealed without a key id cannot be opened by any key of the keyring (DATA_ENCRYPTION_KEYS)',
  );
}

/** The value opened, or null when no key of the ring opens it at `at` (moved from another place, or its key is gone). */
export function unsealOrNull(keys: DataKeyring | Buffer, sealed: Buffer, at: SealedAt): string | null {
  try {
    return unseal(keys, sealed, at);
  } catch (e) {
    if (e instanceof UnsealError) return null;
    throw e;
  }
}
