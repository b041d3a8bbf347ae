import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from '../../../generated/2026-02-19.preview/types';

// Verifying paygate webhooks on the receiving side (Standard Webhooks: https://www.standardwebhooks.com).
// Verify the RAW request body, byte for byte as it arrived: the signature covers those bytes, and a body
// that was parsed and serialised again (different spacing, key order or escaping) no longer matches.
// In Koa or Express, read the body as text/Buffer for this route before any JSON body parser runs.

export type PaygateWebhookEvent = components['schemas']['WebhookEvent'];

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, in seconds (replay protection). Default 300. */
  toleranceSeconds?: number;
  /** Current time in seconds (tests). */
  nowSeconds?: number;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : bag[key];
  return Array.isArray(v) ? v[0] : v;
}

const keyOf = (secret: string) => Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');

/**
 * Checks the signature, then returns the parsed event. `secrets` may hold several secrets (during a rotation
 * on your side: the current and the previous one); any one matching suffices. Throws
 * WebhookVerificationError when the headers are missing, the timestamp is outside the tolerance, or no
 * signature matches.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderBag,
  secrets: string | string[],
  options: VerifyWebhookOptions = {},
): PaygateWebhookEvent {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new WebhookVerificationError(
      'Pass the raw request body (string or Buffer), not parsed JSON: serialising it again changes the bytes the signature covers.',
    );
  }
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signature = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signature)
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header.');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('Malformed webhook-timestamp.');
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - Number(timestamp)) > tolerance)
    throw new WebhookVerificationError('webhook-timestamp is outside the tolerance (replayed or clock skew).');

  const keys = (Array.isArray(secrets) ? secrets : [secrets]).map(keyOf);
  // An empty or short key (an unset environment variable, say) would let anyone sign: refuse to run with it.
  if (keys.length === 0 || keys.some((k) => k.length < 16)) {
    throw new Error("verifyWebhook: each secret must be the endpoint's whsec_… secret (at least 16 bytes); got an empty or short one.");
  }
  const signed = `${id}.${timestamp}.${body}`;
  const expected = keys.map((k) => createHmac('sha256', k).update(signed).digest());
  const given = signature
    .split(' ')
    .map((entry) => entry.split(','))
    .filter(([v, sig]) => v === 'v1' && sig)
    .map(([, sig]) => Buffer.from(sig, 'base64'));
  const match = given.some((g) => expected.some((e) => e.length === g.length && timingSafeEqual(e, g)));
  if (!match) throw new WebhookVerificationError('No signature matches: wrong secret, or the body is not the raw body that was sent.');
  return JSON.parse(body) as PaygateWebhookEvent;
}
