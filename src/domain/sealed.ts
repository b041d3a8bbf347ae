import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Buyer data (travel-rule fields) is personal data: sealed with AES-256-GCM before it reaches the
// database, so a dump or a log of rows shows nothing. Layout: 12-byte IV | 16-byte tag | ciphertext.

export function seal(key: Buffer, plaintext: string): Buffer {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), body]);
}

export function unseal(key: Buffer, sealed: Buffer): string {
  const d = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  d.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([d.update(sealed.subarray(28)), d.final()]).toString('utf8');
}
