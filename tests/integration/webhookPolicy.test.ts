import { client, externalService, newAccount, startTestService, TestService } from '../support/service';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { startReceiver } from '../support/webhookReceiver';
import { eventually } from '../support/eventually';

// Webhook policy under production settings (private networks refused) with a short retry window and
// disable threshold. Its own file: every service in a test file shares the database and works the same
// delivery queue, so this service must be the only one running.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };

describe('webhook endpoint URLs and persistent failure', () => {
  let strict: TestService;
  beforeAll(async () => {
    if (externalService) return;
    // Production defaults: private networks refused; short retry window and disable threshold to see them act.
    // The window is well beyond the threshold: attempts come about every 0.5 s (the queue's polling), so with a
    // 1.5 s window the last one could fall just short of 1 s of failures and the endpoint stayed enabled.
    strict = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', WEBHOOK_MAX_AGE_MS: '3000', WEBHOOK_DISABLE_AFTER_MS: '1000' });
  }, 60_000); // starts a service (and the admin command): slow on a busy machine
  afterAll(async () => strict?.close());
  const maybe = externalService ? it.skip : it;

  maybe('refuses hosts in loopback, private, link-local or reserved networks unless allowed', async () => {
    const acct = await newAccount('Strict');
    const hooks = client(strict.url, { 'Api-Key': acct.apiKey, ...PREVIEW });
    for (const url of ['https://127.0.0.1/h', 'https://localhost/h', 'https://api.localhost/h', 'https://10.1.2.3/h', 'https://192.168.0.1/h',
      'https://169.254.169.254/latest', 'https://[::1]/h', 'https://[fe80::1]/h', 'https://0.0.0.0/h', 'https://100.64.0.1/h']) {
      const r = await hooks('POST', '/v1/webhook-endpoints', { body: { url, enabledEvents: ['payment.created'] }, headers: { 'Idempotency-Key': uniqueKey() } });
      expect({ url, status: r.status, code: r.body.code, field: r.body.issues?.[0]?.field }).toEqual({ url, status: 400, code: 'params_validation', field: '/url' });
    }
    const ok = await hooks('POST', '/v1/webhook-endpoints', { body: { url: 'https://hooks.partner.example/paygate', enabledEvents: ['payment.created'] }, headers: { 'Idempotency-Key': uniqueKey() } });
    expect(ok.status).toBe(201);
    const patch = await hooks('PATCH', `/v1/webhook-endpoints/${ok.body.endpoint.id}`, { body: { url: 'https://127.0.0.1/x' } });
    expect({ status: patch.status, code: patch.body.code }).toEqual({ status: 400, code: 'params_validation' });
  });

  maybe('gives up after the retry window, disables an endpoint that keeps failing, and records why', async () => {
    const p = await merchantWithSettlement(strict, 'Failing');
    const hooks = client(strict.url, { 'Api-Key': p.apiKey, ...PREVIEW });
    const asMerchant = client(strict.url, { 'Api-Key': p.apiKey, 'Merchant-Id': p.merchantId });
    const down = await startReceiver();
    down.respond = () => 500;
    const { endpoint: ep } = (await hooks('POST', '/v1/webhook-endpoints', {
      body: { url: 'https://hooks.partner.example/paygate', enabledEvents: ['payment.created'] }, headers: { 'Idempotency-Key': uniqueKey() },
    })).body;
    // The host "now resolves" to loopback (DNS rebinding after registration): every connection is checked again.
    await strict.db('webhook_endpoints').where({ id: ep.id }).update({ url: down.url });
    try {
      const r = await asMerchant('POST', '/v1/payments', { body: { referenceId: 'r', amount: { unit: 'iso4217/USD', value: '100' } } });
      const endpointNow = await eventually(async () => (await hooks('GET', `/v1/webhook-endpoints/${ep.id}`)).body.endpoint, (e) => e.status === 'disabled', 10000, 100);
      expect(endpointNow.status).toBe('disabled');
      expect(endpointNow.disabledReason).toMatch(/^Every delivery attempt failed since .+; last error: refused: 127\.0\.0\.1 is a loopback address$/);
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
