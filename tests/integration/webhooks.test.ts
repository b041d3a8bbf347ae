import type { PrivateKeyAccount } from 'viem/accounts';
import { verifyWebhook, WebhookVerificationError } from '../../clients/typescript/src/webhooks';
import { admin, client, newAccount, startTestService, TestService } from '../support/service';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { Received, Receiver, startReceiver } from '../support/webhookReceiver';
import { parseExposition, sampleValue } from '../support/prometheus';
import { eventually } from '../support/eventually';
import { DEVNET_USDC, newBuyer } from '../support/chain';

// Webhooks end to end with real HTTPS receivers on loopback: management API (preview), every event type
// signed per Standard Webhooks, retries until the receiver recovers, secret rotation, redelivery, and
// receivers ordering by version. Preview requests go straight to the service (Prism checks the stable one).

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
const ALL_TYPES = [
  'payment.created',
  'payment.processing',
  'payment.succeeded',
  'payment.failed',
  'payment.expired',
  'payment.cancelled',
  'payment.settled',
  'payment.refunded',
];

let buyer: PrivateKeyAccount; // funded on the development chain: payments here move real tokens
let svc: TestService;
let rx: Receiver;
beforeAll(async () => {
  svc = await startTestService();
  buyer = await newBuyer(1_000_000_000n);
  rx = await startReceiver();
}, 60_000); // starts a service (and the admin command): slow on a busy machine
afterAll(async () => {
  await rx.close();
  await svc.close();
});

async function partner() {
  const m = await merchantWithSettlement(svc, 'Hooked Shop');
  const hooks = client(svc.directUrl, { 'Api-Key': m.apiKey, ...PREVIEW });
  const asMerchant = client(svc.directUrl, { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId, ...PREVIEW });
  return { ...m, hooks, asMerchant };
}
type Partner = Awaited<ReturnType<typeof partner>>;

async function endpoint(p: Partner, url: string, enabledEvents = ALL_TYPES) {
  const r = await p.hooks('POST', '/v1/webhook-endpoints', { body: { url, enabledEvents }, headers: { 'Idempotency-Key': uniqueKey() } });
  if (r.status !== 201) throw new Error(r.text);
  return r.body as { endpoint: any; secret: string };
}

async function newPayment(p: Partner, extra: Record<string, unknown> = {}) {
  const r = await p.asMerchant('POST', '/v1/payments', {
    body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '1500' }, ...extra },
  });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.paymentId as string;
}

async function pay(p: Partner, paymentId: string) {
  const wallet = await admin('keys', 'create', '--account', p.accountId, '--type', 'wallet');
  const gw = client(svc.directUrl, { 'Api-Key': wallet.apiKey });
  const o = await gw('POST', `/v1/gateway/payment/${paymentId}/options`, { body: { accounts: [`eip155:31337:${buyer.address}`] } });
  const opt = o.body.options?.[0];
  if (!opt) throw new Error(`no option: ${o.text}`);
  const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
  const c = await gw('POST', `/v1/gateway/payment/${paymentId}/confirm`, {
    body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] },
  });
  if (c.status !== 200) throw new Error(c.text);
  return gw;
}

const forPayment = (all: Received[], paymentId: string) => all.filter((r) => r.body?.data?.payment?.paymentId === paymentId);
const hasTypes = (paymentId: string, types: string[]) => (all: Received[]) => {
  const got = new Set(forPayment(all, paymentId).map((r) => r.body.type));
  return types.every((t) => got.has(t));
};

describe('webhook endpoints (management API, 2026-02-19.preview)', () => {
  it('creates an endpoint and shows its secret once; get, list, update and delete never show it', async () => {
    const p = await partner();
    const idemKey = uniqueKey();
    const create = () =>
      p.hooks('POST', '/v1/webhook-endpoints', {
        body: { url: rx.url, enabledEvents: ['payment.succeeded', 'payment.failed'], description: 'orders' },
        headers: { 'Idempotency-Key': idemKey },
      });
    const created = await create();
    expect(created.status).toBe(201);
    // A retry replays the same response (secret included), but the stored copy is sealed, not clear text.
    const replay = await create();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(created.text);
    const stored = await svc.db('idempotency_keys').where({ key: idemKey }).first();
    expect(stored.response_body).toMatch(/^sealed:/);
    expect(stored.response_body).not.toContain(created.body.secret.slice(6));
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const ep = created.body.endpoint;
    expect(ep).toMatchObject({
      url: rx.url,
      description: 'orders',
      enabledEvents: ['payment.succeeded', 'payment.failed'],
      apiVersion: '2026-02-19.preview',
      status: 'enabled',
      disabledReason: null,
    });
    expect(ep.id).toMatch(/^we_/);

    const got = await p.hooks('GET', `/v1/webhook-endpoints/${ep.id}`);
    expect(got.status).toBe(200);
    expect(got.text).not.toContain(created.body.secret);
    const listed = await p.hooks('GET', '/v1/webhook-endpoints');
    expect(listed.body.endpoints.map((e: any) => e.id)).toEqual([ep.id]);
    expect(listed.text).not.toContain('whsec_');

    const patched = await p.hooks('PATCH', `/v1/webhook-endpoints/${ep.id}`, {
      body: { enabledEvents: ['payment.refunded'], description: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.endpoint).toMatchObject({ enabledEvents: ['payment.refunded'], description: null });

    // The secret is stored sealed, never in clear.
    const row = await svc.db('webhook_endpoints').where({ id: ep.id }).first();
    expect(Buffer.from(row.secret).toString('latin1')).not.toContain(created.body.secret.slice(6));

    expect((await p.hooks('DELETE', `/v1/webhook-endpoints/${ep.id}`)).body).toEqual({ id: ep.id, deleted: true });
    expect((await p.hooks('DELETE', `/v1/webhook-endpoints/${ep.id}`)).status).toBe(200);
    const gone = await p.hooks('GET', `/v1/webhook-endpoints/${ep.id}`);
    expect({ status: gone.status, code: gone.body.code }).toEqual({ status: 404, code: 'webhook_endpoint_not_found' });
    expect((await p.hooks('GET', '/v1/webhook-endpoints')).body.endpoints).toEqual([]);
  });

  it('refuses bad input with documented errors and stores nothing', async () => {
    const p = await partner();
    const post = (body: unknown, headers: Record<string, string> = { 'Idempotency-Key': uniqueKey() }) =>
      p.hooks('POST', '/v1/webhook-endpoints', { body, headers });
    const cases: [unknown, number, string][] = [
      [{ url: 'http://127.0.0.1/hooks', enabledEvents: ['payment.created'] }, 400, 'params_validation'],
      [{ url: rx.url, enabledEvents: [] }, 400, 'params_validation'],
      [{ url: rx.url, enabledEvents: ['payment.unknown'] }, 400, 'params_validation'],
      [{ url: rx.url, enabledEvents: ['payment.created', 'payment.created'] }, 400, 'params_validation'],
      [{ url: 'https://user:pw@example.com/hooks', enabledEvents: ['payment.created'] }, 400, 'params_validation'],
      [{ url: rx.url }, 400, 'params_validation'],
    ];
    for (const [body, status, code] of cases) {
      const r = await post(body);
      expect({ body, status: r.status, code: r.body.code }).toEqual({ body, status, code });
    }
    const noKey = await post({ url: rx.url, enabledEvents: ['payment.created'] }, {});
    expect({ status: noKey.status, code: noKey.body.code }).toEqual({ status: 400, code: 'missing_idempotency_key' });
    expect(await svc.db('webhook_endpoints').where({ account_id: p.accountId }).count('* as n')).toEqual([{ n: '0' }]);

    // An empty diagnostic header is not a name (the gate found it accepted).
    const emptySdk = await p.hooks('GET', '/v1/webhook-endpoints', { headers: { 'Sdk-Name': '' } });
    expect({ status: emptySdk.status, code: emptySdk.body.code }).toEqual({ status: 400, code: 'params_validation' });

    // Preview only: the stable version has no such operation.
    const stable = await client(svc.directUrl, { 'Api-Key': p.apiKey, 'PAY-Version': '2026-02-18' })('GET', '/v1/webhook-endpoints');
    expect({ status: stable.status, code: stable.body.code }).toEqual({ status: 404, code: 'not_found' });
  });

  it('keeps the URL exactly as written, up to the 2048-character limit', async () => {
    const p = await partner();
    const long = `https://${'a'.repeat(63)}.${'b'.repeat(63)}.example`;
    const url = long + '/' + 'p'.repeat(2048 - long.length - 1);
    const bare = `https://${Array.from({ length: 31 }, () => 'c'.repeat(63)).join('.')}.${'d'.repeat(2048 - 8 - 31 * 64)}`;
    expect([url.length, bare.length]).toEqual([2048, 2048]);
    for (const u of [url, bare]) {
      const r = await p.hooks('POST', '/v1/webhook-endpoints', {
        body: { url: u, enabledEvents: ['payment.created'] },
        headers: { 'Idempotency-Key': uniqueKey() },
      });
      expect(r.status).toBe(201);
      expect(r.body.endpoint.url).toBe(u); // not normalised (a trailing "/" would break the limit)
      expect((await p.hooks('GET', '/v1/webhook-endpoints')).status).toBe(200);
    }
  });

  it('keeps accounts apart: another account gets 403 on endpoints and events', async () => {
    const p = await partner();
    const { endpoint: ep } = await endpoint(p, rx.url, ['payment.created']);
    const id = await newPayment(p);
    const ev = (await p.hooks('GET', `/v1/events?paymentId=${id}`)).body.events[0];
    const other = await newAccount('Other');
    const them = client(svc.directUrl, { 'Api-Key': other.apiKey, ...PREVIEW });
    for (const [method, path, body] of [
      ['GET', `/v1/webhook-endpoints/${ep.id}`],
      ['PATCH', `/v1/webhook-endpoints/${ep.id}`, { description: 'x' }],
      ['DELETE', `/v1/webhook-endpoints/${ep.id}`],
      ['POST', `/v1/webhook-endpoints/${ep.id}/rotate-secret`, {}],
      ['GET', `/v1/events/${ev.id}`],
      ['GET', `/v1/events/${ev.id}/attempts`],
      ['POST', `/v1/events/${ev.id}/redeliver`, {}],
    ] as [string, string, unknown?][]) {
      const r = await them(method, path, body === undefined ? {} : { body });
      expect({ path, status: r.status, code: r.body.code }).toEqual({ path, status: 403, code: 'forbidden' });
    }
    expect((await them('GET', '/v1/webhook-endpoints')).body.endpoints).toEqual([]);
    expect((await them('GET', '/v1/events')).body.events).toEqual([]);
    expect((await p.hooks('GET', `/v1/webhook-endpoints/${ep.id}`)).body.endpoint.description).toBeNull();
  });

  it('allows at most 16 endpoints per account', async () => {
    const p = await partner();
    const results = await Promise.all(
      Array.from({ length: 17 }, () =>
        p.hooks('POST', '/v1/webhook-endpoints', {
          body: { url: rx.url, enabledEvents: ['payment.created'] },
          headers: { 'Idempotency-Key': uniqueKey() },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(16);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.code])).toEqual([[409, 'webhook_endpoint_limit']]);
  });
});

describe('delivery', () => {
  it('delivers every event type a payment goes through, signed, with the payment snapshot and its version', async () => {
    const p = await partner();
    const { secret } = await endpoint(p, rx.url);

    const paid = await newPayment(p);
    const gw = await pay(p, paid);
    // Paid on chain, then settled to the merchant's wallet: both arrive before the refund is recorded.
    await rx.until(hasTypes(paid, ['payment.succeeded', 'payment.settled']));
    expect((await p.asMerchant('POST', '/v1/refunds', { body: { paymentId: paid } })).status).toBe(200);
    const cancelled = await newPayment(p);
    await p.asMerchant('POST', `/v1/payments/${cancelled}/cancel`);
    const declined = await newPayment(p);
    expect((await gw('POST', `/v1/gateway/payment/${declined}/decline`)).status).toBe(200);
    const expiring = await newPayment(p, { expiresAt: Math.floor(Date.now() / 1000) + 2 });

    await rx.until(hasTypes(paid, ['payment.created', 'payment.processing', 'payment.succeeded', 'payment.settled', 'payment.refunded']));
    await rx.until(hasTypes(cancelled, ['payment.created', 'payment.cancelled']));
    await rx.until(hasTypes(declined, ['payment.created', 'payment.failed']));
    await rx.until(hasTypes(expiring, ['payment.created', 'payment.expired']), 15000);

    const mine = rx.received.filter((r) => [paid, cancelled, declined, expiring].includes(r.body?.data?.payment?.paymentId));
    for (const r of mine) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['webhook-id']).toBe(r.body.id);
      const event = verifyWebhook(r.raw, r.headers, secret);
      expect(event).toMatchObject({ apiVersion: '2026-02-19.preview', data: { payment: { merchantId: p.merchantId } } });
      expect(Number.isNaN(Date.parse(event.createdAt))).toBe(false);
    }
    // Each payment's events carry versions 1..n in the order of its changes, with a matching snapshot.
    const versions = (id: string) =>
      forPayment(mine, id)
        .map((r) => [r.body.data.payment.version, r.body.type, r.body.data.payment.status])
        .sort((a, b) => a[0] - b[0]);
    expect(versions(paid)).toEqual([
      [1, 'payment.created', 'requires_action'],
      [2, 'payment.processing', 'processing'],
      [3, 'payment.succeeded', 'succeeded'],
      [4, 'payment.settled', 'succeeded'],
      [5, 'payment.refunded', 'succeeded'],
    ]);
    expect(versions(cancelled)).toEqual([
      [1, 'payment.created', 'requires_action'],
      [2, 'payment.cancelled', 'cancelled'],
    ]);
    expect(versions(declined)).toEqual([
      [1, 'payment.created', 'requires_action'],
      [2, 'payment.failed', 'failed'],
    ]);
    expect(versions(expiring)).toEqual([
      [1, 'payment.created', 'requires_action'],
      [2, 'payment.expired', 'expired'],
    ]);
    expect(forPayment(mine, paid).find((r) => r.body.type === 'payment.refunded')!.body.data.payment.refundedAt).not.toBeNull();
    // payment.settled happened after payment.succeeded: the merchant's share was transferred on chain.
    // Deliveries run concurrently, so their arrival order is not promised; the events' own times are.
    const succeeded = forPayment(mine, paid).find((r) => r.body.type === 'payment.succeeded')!;
    const settled = forPayment(mine, paid).find((r) => r.body.type === 'payment.settled')!;
    expect(Date.parse(settled.body.createdAt)).toBeGreaterThanOrEqual(Date.parse(succeeded.body.createdAt));
    expect(settled.body.data.payment).toMatchObject({
      status: 'succeeded',
      isFinal: true,
      tokenAmount: { unit: `caip19/${DEVNET_USDC}`, value: '15000000' },
      txId: succeeded.body.data.payment.txId,
    });
    const details = await p.asMerchant('GET', `/v1/payments/${paid}`);
    expect(details.body.settlement).toMatchObject({
      successful: { amount: { unit: `caip19/${DEVNET_USDC}`, value: '15000000' }, txId: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
    });

    // The events API shows the same bodies, and each delivery succeeded on its first attempt.
    const listed = await p.hooks('GET', `/v1/events?paymentId=${paid}`);
    expect(listed.body.events.map((e: any) => e.data.payment.version)).toEqual([5, 4, 3, 2, 1]);
    const sent = forPayment(mine, paid).find((r) => r.body.type === 'payment.succeeded')!;
    expect(JSON.stringify(listed.body.events[2])).toBe(sent.raw);
    // (Recorded just after the receiver's answer: successes are recorded in batches.)
    const attempts = await eventually(
      async () => (await p.hooks('GET', `/v1/events/${sent.body.id}/attempts`)).body,
      (b: any) => b.deliveries.every((d: any) => d.status !== 'pending'),
      10_000,
      100,
    );
    expect(attempts.deliveries).toMatchObject([{ status: 'succeeded', attempts: 1, redelivery: false, nextAttemptAt: null }]);
    expect(attempts.attempts).toMatchObject([{ responseStatus: 200, succeeded: true, error: null }]);
  });

  it('a burst of events to two endpoints: every delivery arrives once and each records its one successful attempt', async () => {
    // Attempts that end together are recorded together (src/jobs/webhooks/recorder.ts): each still gets its own
    // attempt row and its delivery's state, and an endpoint's failure run ends.
    const p = await partner();
    const one = await startReceiver();
    const two = await startReceiver();
    try {
      const { endpoint: first } = await endpoint(p, one.url, ['payment.created']);
      await endpoint(p, two.url, ['payment.created']);
      await svc.db('webhook_endpoints').where({ id: first.id }).update({ failing_since: new Date(), last_failed_at: new Date() });
      const ids = await Promise.all(Array.from({ length: 24 }, () => newPayment(p)));
      for (const rx of [one, two]) await rx.until((all) => ids.every((id) => forPayment(all, id).length >= 1));
      for (const rx of [one, two]) expect(ids.map((id) => forPayment(rx.received, id).length)).toEqual(ids.map(() => 1));
      for (const r of one.received.filter((x) => ids.includes(x.body.data.payment.paymentId)).slice(0, 6)) {
        const a = await eventually(
          async () => (await p.hooks('GET', `/v1/events/${r.body.id}/attempts`)).body,
          (b: any) => b.deliveries.every((d: any) => d.status === 'succeeded'),
          10_000,
          100,
        );
        expect(a.deliveries).toMatchObject([
          { status: 'succeeded', attempts: 1 },
          { status: 'succeeded', attempts: 1 },
        ]);
        expect(a.attempts).toHaveLength(2);
        expect(a.attempts.every((x: any) => x.succeeded && x.responseStatus === 200 && x.error === null)).toBe(true);
      }
      const ep = await svc.db('webhook_endpoints').where({ id: first.id }).first();
      expect({ failing_since: ep.failing_since, last_failed_at: ep.last_failed_at }).toEqual({ failing_since: null, last_failed_at: null });
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('sends only the subscribed types, and nothing to a disabled endpoint', async () => {
    const p = await partner();
    const only = await startReceiver();
    const off = await startReceiver();
    try {
      await endpoint(p, only.url, ['payment.cancelled']);
      const { endpoint: disabled } = await endpoint(p, off.url);
      await p.hooks('PATCH', `/v1/webhook-endpoints/${disabled.id}`, { body: { status: 'disabled' } });
      const id = await newPayment(p);
      await p.asMerchant('POST', `/v1/payments/${id}/cancel`);
      await only.until((all) => all.length >= 1);
      await new Promise((r) => setTimeout(r, 800)); // any stray delivery would have come by now
      expect(only.received.map((r) => r.body.type)).toEqual(['payment.cancelled']);
      expect(off.received).toEqual([]);
      const ep = await p.hooks('GET', `/v1/webhook-endpoints/${disabled.id}`);
      expect(ep.body.endpoint).toMatchObject({ status: 'disabled', disabledReason: 'disabled by the partner' });
    } finally {
      await only.close();
      await off.close();
    }
  });

  it('retries with backoff until a failing receiver answers 2xx, and records every attempt', async () => {
    const p = await partner();
    const flaky = await startReceiver();
    try {
      let failures = 0;
      flaky.respond = () => (failures++ < 3 ? 503 : 200);
      await endpoint(p, flaky.url, ['payment.cancelled']);
      const id = await newPayment(p);
      await p.asMerchant('POST', `/v1/payments/${id}/cancel`);
      const all = await flaky.until((a) => a.length >= 4);
      expect(new Set(all.map((r) => r.headers['webhook-id'])).size).toBe(1); // the same event each time
      const eventId = all[0].headers['webhook-id'];
      const attempts = await eventually(
        async () => (await p.hooks('GET', `/v1/events/${eventId}/attempts`)).body,
        (b) => b.deliveries[0]?.status === 'succeeded',
        2000,
      );
      // Backoff (200 ms base, half of it at least), judged on when the service started each attempt: arrival
      // times at the receiver also carry the load of a shared machine (one arrived 60 ms after a late one).
      const started = attempts.attempts.map((a: any) => Date.parse(a.attemptedAt));
      const gaps = started.slice(1).map((t: number, i: number) => t - started[i]);
      expect(gaps.every((g: number) => g >= 90)).toBe(true);
      expect(attempts.deliveries).toMatchObject([{ status: 'succeeded', attempts: 4 }]);
      expect(attempts.attempts.map((a: any) => [a.responseStatus, a.succeeded])).toEqual([
        [503, false],
        [503, false],
        [503, false],
        [200, true],
      ]);
      expect(attempts.attempts[0].error).toBe('HTTP 503');
    } finally {
      await flaky.close();
    }
  });

  it('gives up on a receiver that does not answer within the timeout, and tries again', async () => {
    const p = await partner();
    const slow = await startReceiver();
    try {
      slow.respond = (_r, nth) => (nth === 1 ? 'hang' : 200); // WEBHOOK_TIMEOUT_MS is 3000 in the test services
      await endpoint(p, slow.url, ['payment.created']);
      await newPayment(p);
      const all = await slow.until((got) => got.length >= 2, 20000);
      expect(all[1].at - all[0].at).toBeGreaterThanOrEqual(3000);
      const eventId = all[0].headers['webhook-id'];
      const attempts: any[] = await eventually(
        async () => (await p.hooks('GET', `/v1/events/${eventId}/attempts`)).body.attempts,
        (a) => a.length >= 2,
        2000,
      );
      expect(attempts.map((a) => [a.responseStatus, a.error, a.succeeded])).toEqual([
        [null, 'timeout after 3000 ms', false],
        [200, null, true],
      ]);
      expect(attempts[0].durationMs).toBeGreaterThanOrEqual(3000);
    } finally {
      await slow.close();
    }
  });

  it('counts pending deliveries in the /metrics webhook backlog', async () => {
    const p = await partner();
    const stuck = await startReceiver();
    try {
      stuck.respond = () => 503;
      await endpoint(p, stuck.url, ['payment.created']);
      await newPayment(p);
      await stuck.until((all) => all.length >= 1);
      const pending = Number((await svc.db('webhook_deliveries').where({ status: 'pending' }).count('* as n'))[0].n);
      expect(pending).toBeGreaterThanOrEqual(1);
      const scrape = await fetch(`${svc.directUrl}/metrics`);
      const backlog = sampleValue(parseExposition(await scrape.text()), 'paygate_webhook_delivery_backlog');
      expect(backlog).toBeGreaterThanOrEqual(1);
    } finally {
      await stuck.close();
    }
  });

  it('rotates the secret: during the overlap each delivery is signed with both, then with the new one only', async () => {
    const p = await partner();
    const { endpoint: ep, secret: oldSecret } = await endpoint(p, rx.url, ['payment.cancelled']);
    const rotated = await p.hooks('POST', `/v1/webhook-endpoints/${ep.id}/rotate-secret`, { body: { overlapSeconds: 3600 } });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.secret;
    expect(newSecret).not.toBe(oldSecret);
    expect(Date.parse(rotated.body.endpoint.previousSecretExpiresAt)).toBeGreaterThan(Date.now() + 3500_000);

    const a = await newPayment(p);
    await p.asMerchant('POST', `/v1/payments/${a}/cancel`);
    const [during] = forPayment(await rx.until(hasTypes(a, ['payment.cancelled'])), a);
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyWebhook(during.raw, during.headers, oldSecret).id).toBe(during.body.id);
    expect(verifyWebhook(during.raw, during.headers, newSecret).id).toBe(during.body.id);

    const ended = await p.hooks('POST', `/v1/webhook-endpoints/${ep.id}/rotate-secret`, { body: { overlapSeconds: 0 } });
    const newest = ended.body.secret;
    expect(ended.body.endpoint.previousSecretExpiresAt).toBeNull();
    const b = await newPayment(p);
    await p.asMerchant('POST', `/v1/payments/${b}/cancel`);
    const [after] = forPayment(await rx.until(hasTypes(b, ['payment.cancelled'])), b);
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verifyWebhook(after.raw, after.headers, newest).id).toBe(after.body.id);
    expect(() => verifyWebhook(after.raw, after.headers, newSecret)).toThrow(WebhookVerificationError);
  });

  it('two rotations at once leave both returned secrets valid (one current, one previous)', async () => {
    const p = await partner();
    const { endpoint: ep } = await endpoint(p, rx.url, ['payment.cancelled']);
    const [a, b] = await Promise.all(
      [1, 2].map(() => p.hooks('POST', `/v1/webhook-endpoints/${ep.id}/rotate-secret`, { body: { overlapSeconds: 600 } })),
    );
    expect([a.status, b.status]).toEqual([200, 200]);
    const id = await newPayment(p);
    await p.asMerchant('POST', `/v1/payments/${id}/cancel`);
    const [got] = forPayment(await rx.until(hasTypes(id, ['payment.cancelled'])), id);
    expect(verifyWebhook(got.raw, got.headers, a.body.secret).id).toBe(got.body.id);
    expect(verifyWebhook(got.raw, got.headers, b.body.secret).id).toBe(got.body.id);
  });

  it('redelivers an event with the same id; a receiver ordering by version drops the stale copy', async () => {
    const p = await partner();
    const ordered = await startReceiver();
    try {
      const { endpoint: ep, secret } = await endpoint(p, ordered.url, ['payment.created', 'payment.cancelled']);
      const id = await newPayment(p);
      await p.asMerchant('POST', `/v1/payments/${id}/cancel`);
      await ordered.until(hasTypes(id, ['payment.created', 'payment.cancelled']));
      const created = ordered.received.find((r) => r.body.type === 'payment.created')!;

      const again = await p.hooks('POST', `/v1/events/${created.body.id}/redeliver`, { body: { endpointId: ep.id } });
      expect(again.status).toBe(202);
      expect(again.body.deliveries).toMatchObject([{ endpointId: ep.id, status: 'pending', redelivery: true, attempts: 0 }]);
      await ordered.until((all) => all.length >= 3);
      const copy = ordered.received[2];
      expect(copy.headers['webhook-id']).toBe(created.body.id);
      expect(copy.raw).toBe(created.raw);
      expect(verifyWebhook(copy.raw, copy.headers, secret).type).toBe('payment.created');

      // What a receiver does with `version`: keep the highest it has seen; the late copy changes nothing.
      const latest = new Map<string, any>();
      for (const r of ordered.received) {
        const snap = r.body.data.payment;
        if ((latest.get(snap.paymentId)?.version ?? 0) < snap.version) latest.set(snap.paymentId, snap);
      }
      expect(latest.get(id)).toMatchObject({ status: 'cancelled', version: 2 });

      // The receiver has the copy; its attempt is recorded just after its answer (successes are recorded in batches).
      const deliveries = await eventually(
        async () => (await p.hooks('GET', `/v1/events/${created.body.id}/attempts`)).body.deliveries,
        (ds: any[]) => ds.every((d) => d.status !== 'pending'),
        10_000,
        100,
      );
      expect(deliveries.map((d: any) => [d.redelivery, d.status])).toEqual([
        [false, 'succeeded'],
        [true, 'succeeded'],
      ]);

      // To every subscribed endpoint when none is named; refused when the endpoint is disabled.
      expect((await p.hooks('POST', `/v1/events/${created.body.id}/redeliver`, { body: {} })).status).toBe(202);
      await p.hooks('PATCH', `/v1/webhook-endpoints/${ep.id}`, { body: { status: 'disabled' } });
      const refused = await p.hooks('POST', `/v1/events/${created.body.id}/redeliver`, { body: { endpointId: ep.id } });
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 409, code: 'webhook_endpoint_disabled' });
      const none = await p.hooks('POST', `/v1/events/${created.body.id}/redeliver`, { body: {} });
      expect({ status: none.status, code: none.body.code }).toEqual({ status: 409, code: 'no_webhook_endpoint' });
      const missing = await p.hooks('GET', '/v1/events/evt_doesNotExist0000000000');
      expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 404, code: 'event_not_found' });
    } finally {
      await ordered.close();
    }
  });

  it('lists events newest first with a stable cursor and filters', async () => {
    const p = await partner();
    const ids = [await newPayment(p), await newPayment(p), await newPayment(p)];
    await p.asMerchant('POST', `/v1/payments/${ids[0]}/cancel`);
    const page1 = await p.hooks('GET', '/v1/events?limit=2');
    expect(page1.status).toBe(200);
    expect(page1.body.events).toHaveLength(2);
    expect(page1.body.events[0].type).toBe('payment.cancelled');
    const page2 = await p.hooks('GET', `/v1/events?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.events).toHaveLength(2);
    expect(page2.body.nextCursor).toBeNull();
    const seen = [...page1.body.events, ...page2.body.events].map((e: any) => e.id);
    expect(new Set(seen).size).toBe(4);
    const cancelledOnly = await p.hooks('GET', '/v1/events?type=payment.cancelled');
    expect(cancelledOnly.body.events.map((e: any) => e.data.payment.paymentId)).toEqual([ids[0]]);
    const edited = (createdAt: string) => Buffer.from(JSON.stringify({ createdAt, id: 'evt_abc' })).toString('base64url');
    for (const cursor of ['bm90LWEtY3Vyc29y', edited('12'), edited('+275760-09-13T00:00:00.000Z'), edited('2026-01-01')]) {
      const bad = await p.hooks('GET', `/v1/events?cursor=${cursor}`);
      expect({ cursor, status: bad.status, code: bad.body.code }).toEqual({ cursor, status: 400, code: 'params_validation' });
    }
  });
});

describe('the README Koa receiver example', () => {
  it('accepts paygate deliveries, rejects forged ones, and applies each payment version once', async () => {
    const https = await import('node:https');
    const fs = await import('node:fs');
    const { createReceiver } = await import('../../examples/webhook-receiver/koa');
    const p = await partner();
    const applied: string[] = [];
    let secret = '';
    // The secret is known only once the endpoint exists, so the app is made per request here.
    const server = https.createServer(
      { key: fs.readFileSync('.data/test-tls/key.pem'), cert: fs.readFileSync('.data/test-tls/cert.pem') },
      (req, res) => createReceiver([secret], async (e) => void applied.push(`${e.type}#${e.data.payment.version}`)).callback()(req, res),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `https://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}/hooks/paygate`;
      secret = (await endpoint(p, url, ['payment.created', 'payment.cancelled'])).secret;
      const id = await newPayment(p);
      await p.asMerchant('POST', `/v1/payments/${id}/cancel`);
      await eventually(
        async () => applied.length,
        (n) => n >= 2,
      );
      expect(applied.sort()).toEqual(['payment.cancelled#2', 'payment.created#1']);
      // A forged delivery (no valid signature) is refused.
      const status = await new Promise<number>((resolve, reject) => {
        const req = https.request(
          url,
          {
            method: 'POST',
            ca: fs.readFileSync('.data/test-tls/cert.pem'),
            headers: { 'webhook-id': 'evt_x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        );
        req.on('error', reject);
        req.end('{}');
      });
      expect(status).toBe(400);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
