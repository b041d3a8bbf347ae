import { verifyWebhook, WebhookVerificationError } from '../../clients/typescript/src/webhooks';
import { forbiddenAddressReason, parseWebhookUrl } from '../../src/domain/webhookAddress';
import { nextAttemptAt, retryDelayMs } from '../../src/domain/webhookRetry';
import { newWebhookSecret, signWebhook, webhookHeaders } from '../../src/domain/webhookSignature';

describe('webhook signing (Standard Webhooks)', () => {
  it('matches the Standard Webhooks reference vector', () => {
    expect(signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('makes 24-byte secrets', () => {
    const s = newWebhookSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(s);
  });
});

describe('verifyWebhook (the receiver helper of the TypeScript client)', () => {
  const secret = newWebhookSecret();
  const now = 1_800_000_000;
  const event = {
    id: 'evt_1',
    type: 'payment.succeeded',
    createdAt: '2027-01-15T08:00:00.000Z',
    apiVersion: '2026-02-19.preview',
    data: { payment: { paymentId: 'pay_1', version: 3 } },
  };
  const raw = JSON.stringify(event);
  const headers = webhookHeaders([secret], 'evt_1', now, raw);

  it('accepts the raw body as a string or a Buffer and returns the event', () => {
    expect(verifyWebhook(raw, headers, secret, { nowSeconds: now })).toEqual(event);
    expect(verifyWebhook(Buffer.from(raw), headers, secret, { nowSeconds: now + 299 })).toEqual(event);
    // Header names in any case, or a fetch Headers object.
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook(raw, upper, secret, { nowSeconds: now }).id).toBe('evt_1');
    expect(verifyWebhook(raw, new Headers(headers), secret, { nowSeconds: now }).id).toBe('evt_1');
  });

  it('the raw-body pitfall: a parsed and re-serialised body does not verify', () => {
    const reserialised = JSON.stringify(JSON.parse(raw), null, 2);
    expect(() => verifyWebhook(reserialised, headers, secret, { nowSeconds: now })).toThrow(/raw body/);
    const { type, ...rest } = event;
    const reordered = JSON.stringify({ type, ...rest });
    expect(reordered).not.toBe(raw);
    expect(() => verifyWebhook(reordered, headers, secret, { nowSeconds: now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(JSON.parse(raw), headers, secret, { nowSeconds: now })).toThrow(/not parsed JSON/);
  });

  it('refuses to verify with an empty or short secret (an unset variable must not accept forgeries)', () => {
    for (const bad of ['', 'whsec_', 'whsec_AAAA', [] as string[], [secret, '']]) {
      expect(() => verifyWebhook(raw, headers, bad, { nowSeconds: now })).toThrow(/at least 16 bytes/);
    }
  });

  it('refuses a wrong secret, a tampered body or id, an old or future timestamp, and missing headers', () => {
    expect(() => verifyWebhook(raw, headers, newWebhookSecret(), { nowSeconds: now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(raw.replace('succeeded', 'failed'), headers, secret, { nowSeconds: now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(raw, { ...headers, 'webhook-id': 'evt_2' }, secret, { nowSeconds: now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(raw, headers, secret, { nowSeconds: now + 301 })).toThrow(/tolerance/);
    expect(() => verifyWebhook(raw, headers, secret, { nowSeconds: now - 301 })).toThrow(/tolerance/);
    expect(() => verifyWebhook(raw, { ...headers, 'webhook-signature': '' }, secret, { nowSeconds: now })).toThrow(/Missing/);
    expect(() => verifyWebhook(raw, { ...headers, 'webhook-timestamp': 'soon' }, secret, { nowSeconds: now })).toThrow(/Malformed/);
    expect(() =>
      verifyWebhook(raw, { ...headers, 'webhook-signature': 'v2,' + headers['webhook-signature'].slice(3) }, secret, { nowSeconds: now }),
    ).toThrow(WebhookVerificationError);
  });

  it('during a rotation, a header with two signatures verifies with either secret', () => {
    const next = newWebhookSecret();
    const both = webhookHeaders([next, secret], 'evt_1', now, raw);
    expect(both['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyWebhook(raw, both, secret, { nowSeconds: now }).id).toBe('evt_1');
    expect(verifyWebhook(raw, both, next, { nowSeconds: now }).id).toBe('evt_1');
    expect(verifyWebhook(raw, headers, [next, secret], { nowSeconds: now }).id).toBe('evt_1');
  });
});

describe('retry schedule', () => {
  const policy = { baseMs: 5000, maxDelayMs: 6 * 3600_000, maxAgeMs: 3 * 24 * 3600_000 };

  it('doubles each time with equal jitter, capped', () => {
    expect(retryDelayMs(policy, 1, () => 0)).toBe(2500);
    expect(retryDelayMs(policy, 1, () => 1)).toBe(5000);
    expect(retryDelayMs(policy, 4, () => 0.5)).toBe(30000);
    expect(retryDelayMs(policy, 40, () => 1)).toBe(6 * 3600_000);
    expect(retryDelayMs(policy, 40, () => 0)).toBe(3 * 3600_000);
  });

  it('keeps trying for 3 days, then gives up', () => {
    const created = new Date('2027-01-01T00:00:00Z');
    let now = created;
    let attempts = 0;
    for (;;) {
      attempts++;
      const next = nextAttemptAt(policy, created, attempts, now, () => 1);
      if (!next) break;
      now = next;
    }
    expect(now.getTime() - created.getTime()).toBeLessThanOrEqual(policy.maxAgeMs);
    expect(now.getTime() - created.getTime()).toBeGreaterThan(policy.maxAgeMs - policy.maxDelayMs);
    expect(attempts).toBeGreaterThan(15);
    expect(attempts).toBeLessThan(40);
  });
});

describe('webhook URL and address rules', () => {
  it('allows public unicast addresses only, private ones when the operator says so', () => {
    expect(forbiddenAddressReason('93.184.216.34', false)).toBeNull();
    expect(forbiddenAddressReason('2606:4700::1111', false)).toBeNull();
    for (const a of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '::1', 'fd00::1', '::ffff:10.0.0.1']) {
      expect(forbiddenAddressReason(a, false)).toMatch(/loopback|private|uniqueLocal/);
      expect(forbiddenAddressReason(a, true)).toBeNull();
    }
    // Never, whatever the operator allows: link-local (cloud metadata), IPv4-compatible IPv6, and the rest.
    for (const a of [
      '169.254.169.254',
      'fe80::1',
      '::7f00:1',
      '::a00:1',
      '0.0.0.0',
      '::',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '192.0.2.1',
    ]) {
      expect(forbiddenAddressReason(a, true)).not.toBeNull();
    }
  });

  it('parses https URLs without credentials or fragments', () => {
    expect(parseWebhookUrl('https://h.example/x?y=1').problem).toBeNull();
    expect(parseWebhookUrl('http://h.example/').problem).toBe('must use https');
    expect(parseWebhookUrl('https://a:b@h.example/').problem).toBe('must not carry credentials');
    expect(parseWebhookUrl('https://h.example/#x').problem).toBe('must not have a fragment');
    expect(parseWebhookUrl('https://[zz]/').problem).toBe('is not a valid URL');
  });
});
