import { client, newAccount } from '../support/service';
import { uniqueKey } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { PREVIEW, endpoint, newPayment, partner, rx, svc, useWebhooksSuite } from '../support/webhooksSuite';

useWebhooksSuite();

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
describe('the Koa receiver example of docs/webhooks.md', () => {
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
