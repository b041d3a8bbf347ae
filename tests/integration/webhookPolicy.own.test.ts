import { eventually } from '../support/eventually';
import { FakeDns, startFakeDns } from '../support/fakeDns';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, newAccount, startTestService, TestService } from '../support/service';
import { startReceiver } from '../support/webhookReceiver';

// Webhook policy under production settings (private networks refused) with a short retry window and
// disable threshold. Its own file: every service in a test file shares the database and works the same
// delivery queue, so this service must be the only one running.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };

describe('webhook endpoint URLs and persistent failure', () => {
  let strict: TestService;
  let dns: FakeDns;
  beforeAll(async () => {
    // Names resolve through a DNS server of the test's own (other names: NXDOMAIN, accepted at registration).
    dns = await startFakeDns();
    dns.records.set('internal.partner.test', ['10.1.2.3']);
    dns.records.set('mixed.partner.test', ['93.184.215.14', 'fd00::5']);
    dns.records.set('public.partner.test', ['93.184.215.14']);
    // Production defaults: private networks refused; short retry window and disable threshold to see them act.
    // The window is well beyond the threshold: attempts come about every 0.5 s (the queue's polling), so with a
    // 1.5 s window the last one could fall just short of 1 s of failures and the endpoint stayed enabled.
    strict = await startTestService({
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false',
      WEBHOOK_MAX_AGE_MS: '3000',
      WEBHOOK_DISABLE_AFTER_MS: '1000',
      WEBHOOK_DNS_SERVERS: dns.server,
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost,internal.partner.test',
    });
  }, 60_000); // starts a service (and the admin command): slow on a busy machine
  afterAll(async () => {
    await strict?.close();
    await dns?.close();
  });

  it('refuses hosts in loopback, private, link-local or reserved networks unless allowed', async () => {
    const acct = await newAccount('Strict');
    const hooks = client(strict.url, { 'Api-Key': acct.apiKey, ...PREVIEW });
    for (const url of [
      'https://127.0.0.1/h',
      'https://localhost/h',
      'https://api.localhost/h',
      'https://10.1.2.3/h',
      'https://192.168.0.1/h',
      'https://169.254.169.254/latest',
      'https://[::1]/h',
      'https://[fe80::1]/h',
      'https://0.0.0.0/h',
      'https://100.64.0.1/h',
    ]) {
      const r = await hooks('POST', '/v1/webhook-endpoints', {
        body: { url, enabledEvents: ['payment.created'] },
        headers: { 'Idempotency-Key': uniqueKey() },
      });
      expect({ url, status: r.status, code: r.body.code, field: r.body.issues?.[0]?.field }).toEqual({
        url,
        status: 400,
        code: 'params_validation',
        field: '/url',
      });
    }
    const ok = await hooks('POST', '/v1/webhook-endpoints', {
      body: { url: 'https://hooks.partner.example/paygate', enabledEvents: ['payment.created'] },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    expect(ok.status).toBe(201);
    const patch = await hooks('PATCH', `/v1/webhook-endpoints/${ok.body.endpoint.id}`, { body: { url: 'https://127.0.0.1/x' } });
    expect({ status: patch.status, code: patch.body.code }).toEqual({ status: 400, code: 'params_validation' });
  });

  it('refuses a name that resolves to a non-public address without saying which address', async () => {
    const acct = await newAccount('Resolved');
    const hooks = client(strict.url, { 'Api-Key': acct.apiKey, ...PREVIEW });
    const post = (url: string) =>
      hooks('POST', '/v1/webhook-endpoints', {
        body: { url, enabledEvents: ['payment.created'] },
        headers: { 'Idempotency-Key': uniqueKey() },
      });
    for (const url of ['https://internal.partner.test/h', 'https://mixed.partner.test/h']) {
      const r = await post(url);
      expect({ url, status: r.status, code: r.body.code, issues: r.body.issues }).toEqual({
        url,
        status: 400,
        code: 'params_validation',
        issues: [{ field: '/url', message: 'must not point to a private or reserved network: the host resolves to a non-public address' }],
      });
      expect(r.text).not.toMatch(/10\.1\.2\.3|fd00/);
    }
    expect(dns.queries.get('internal.partner.test')).toBeGreaterThanOrEqual(1); // asked the configured servers
    expect((await post('https://public.partner.test/h')).status).toBe(201);
    // PATCH checks the same way.
    const { endpoint: ep } = (await post('https://public.partner.test/h2')).body;
    const patch = await hooks('PATCH', `/v1/webhook-endpoints/${ep.id}`, { body: { url: 'https://internal.partner.test/h' } });
    expect({ status: patch.status, message: patch.body.issues?.[0]?.message }).toEqual({
      status: 400,
      message: 'must not point to a private or reserved network: the host resolves to a non-public address',
    });
  });

  it('a delivery to a name that now resolves to a private address fails without showing the address', async () => {
    const p = await merchantWithSettlement(strict, 'Rebound');
    const hooks = client(strict.url, { 'Api-Key': p.apiKey, ...PREVIEW });
    const { endpoint: ep } = (
      await hooks('POST', '/v1/webhook-endpoints', {
        body: { url: 'https://public.partner.test/paygate', enabledEvents: ['payment.created'] },
        headers: { 'Idempotency-Key': uniqueKey() },
      })
    ).body;
    // The name now points into the service's network (DNS rebinding after registration).
    await strict.db('webhook_endpoints').where({ id: ep.id }).update({ url: 'https://internal.partner.test/paygate' });
    const r = await p.asMerchant('POST', '/v1/payments', {
      body: { referenceId: 'rebound', amount: { unit: 'iso4217/USD', value: '100' } },
    });
    const ev = (await hooks('GET', `/v1/events?paymentId=${r.body.paymentId}`)).body.events[0];
    const att = await eventually(
      async () => (await hooks('GET', `/v1/events/${ev.id}/attempts`)).body,
      (b) => b.attempts.length >= 1,
      10000,
      100,
    );
    expect(att.attempts[0]).toMatchObject({
      succeeded: false,
      responseStatus: null,
      error: 'refused: internal.partner.test resolves to a non-public address',
    });
    const endpointNow = await eventually(
      async () => (await hooks('GET', `/v1/webhook-endpoints/${ep.id}`)).body.endpoint,
      (e) => e.status === 'disabled',
      10000,
      100,
    );
    expect(endpointNow.disabledReason).toMatch(/last error: refused: internal\.partner\.test resolves to a non-public address$/);
    expect(JSON.stringify(att) + JSON.stringify(endpointNow)).not.toContain('10.1.2.3');
  });

  it('gives up after the retry window, disables an endpoint that keeps failing, and records why', async () => {
    const p = await merchantWithSettlement(strict, 'Failing');
    const hooks = client(strict.url, { 'Api-Key': p.apiKey, ...PREVIEW });
    const asMerchant = client(strict.url, { 'Api-Key': p.apiKey, 'Merchant-Id': p.merchantId });
    const down = await startReceiver();
    down.respond = () => 500;
    const { endpoint: ep } = (
      await hooks('POST', '/v1/webhook-endpoints', {
        body: { url: 'https://hooks.partner.example/paygate', enabledEvents: ['payment.created'] },
        headers: { 'Idempotency-Key': uniqueKey() },
      })
    ).body;
    // The host "now resolves" to loopback (DNS rebinding after registration): every connection is checked again.
    await strict.db('webhook_endpoints').where({ id: ep.id }).update({ url: down.url });
    try {
      const r = await asMerchant('POST', '/v1/payments', { body: { referenceId: 'r', amount: { unit: 'iso4217/USD', value: '100' } } });
      const endpointNow = await eventually(
        async () => (await hooks('GET', `/v1/webhook-endpoints/${ep.id}`)).body.endpoint,
        (e) => e.status === 'disabled',
        10000,
        100,
      );
      expect(endpointNow.status).toBe('disabled');
      expect(endpointNow.disabledReason).toMatch(
        /^Every delivery attempt failed since .+; last error: refused: 127\.0\.0\.1 is a loopback address$/,
      );
      expect(down.received).toEqual([]); // never connected
      expect(endpointNow.disabledAt).not.toBeNull();
      const ev = (await hooks('GET', `/v1/events?paymentId=${r.body.paymentId}`)).body.events[0];
      const att = (await hooks('GET', `/v1/events/${ev.id}/attempts`)).body;
      expect(['failed', 'cancelled']).toContain(att.deliveries[0].status);
      expect(att.attempts.length).toBeGreaterThanOrEqual(1);
      expect(att.attempts.every((a: any) => !a.succeeded && a.responseStatus === null && /loopback/.test(a.error))).toBe(true);
    } finally {
      await down.close();
    }
  });
});
