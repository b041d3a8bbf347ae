import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks signing (https://www.standardwebhooks.com): the HMAC-SHA256 key is the base64 part of
// a `whsec_` secret; the signed content is `${webhook-id}.${webhook-timestamp}.${raw body}`; the header
// `webhook-signature` lists `v1,<base64 signature>` entries separated by spaces, one per valid secret (two
// while a rotated secret overlaps with its predecessor).

const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  return 'v1,' + createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
}

/** The three headers of one delivery attempt. */
export function webhookHeaders(secrets: string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => signWebhook(s, id, timestampSeconds, body)).join(' '),
  };
}
