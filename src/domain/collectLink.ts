import { createHash, createHmac } from 'node:crypto';
import type { DataKeyring } from './sealed';

// The hosted data-collection page (`collectData.url`) writes buyer data onto a payment's options, and the pay
// link (the payment id) is shown to anyone who sees the checkout. So the collect link carries a token of its
// own, handed only to the gateway caller that asked for the options: a MAC of the payment and that caller
// under a key derived from the data key. The same caller gets the same link on every quote of the payment,
// and nobody else can make it. Options store the token's SHA-256 (their scope): the form's data goes to the
// options of that link only, and a later quote inherits data only from options of its own scope.

/** The caller's link token under each key of the ring, the newest (the one handed out) first. */
export function collectLinkTokens(keys: DataKeyring, paymentId: string, callerId: string): string[] {
  return keys.keys.map((k) => {
    const linkKey = createHmac('sha256', k.key).update('paygate collect link').digest();
    return createHmac('sha256', linkKey).update(`${paymentId}\0${callerId}`).digest('base64url');
  });
}

/** What options store of a link's token. */
export const collectScope = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/** A token as links carry it (43 base64url characters); anything else names no options. */
export const isCollectToken = (raw: unknown): raw is string => typeof raw === 'string' && /^[A-Za-z0-9_-]{43}$/.test(raw);
