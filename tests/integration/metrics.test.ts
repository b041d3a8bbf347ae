import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { parseExposition, sampleValue } from '../support/prometheus';
import { client, startTestService, TestService } from '../support/service';

// /metrics is an operational endpoint outside the API document: every request here goes to the service
// directly (svc.directUrl), never through the contract gate's validating proxy.

const usd = (value = '1000') => ({ unit: 'iso4217/USD', value });

describe('GET /metrics on the shared test service', () => {
  let svc: TestService;
  let m: Awaited<ReturnType<typeof merchantWithSettlement>>;
  let anon: ReturnType<typeof client>;
  const scrape = async () => {
    const r = await anon('GET', '/metrics');
    expect(r.status).toBe(200);
    return parseExposition(r.text);
  };

  beforeAll(async () => {
    svc = await startTestService();
    m = await merchantWithSettlement(svc, 'Metrics');
    anon = client(svc.directUrl);
  }, 60_000); // starts a service (and the admin command): slow on a busy machine
  afterAll(() => svc.close());

  it('answers the Prometheus text format with the service metrics and the default process metrics', async () => {
    const r = await anon('GET', '/metrics');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const line of [
      '# TYPE paygate_http_requests_total counter',
      '# TYPE paygate_http_request_duration_seconds histogram',
      '# TYPE paygate_payments gauge',
      '# TYPE paygate_longpoll_waiters gauge',
      '# TYPE process_cpu_user_seconds_total counter',
      '# TYPE nodejs_eventloop_lag_seconds gauge',
    ])
      expect(r.text).toContain(line);
    const samples = parseExposition(r.text); // throws on any line that is not a sample or a comment
    for (const s of ['requires_action', 'processing', 'succeeded', 'failed', 'expired', 'cancelled']) {
      expect(samples.some((x) => x.name === 'paygate_payments' && x.labels.status === s)).toBe(true);
    }
  });

  it('counts requests per operationId, method and status (never by raw path) and times them', async () => {
    const before = await scrape();
    const ops = [
      { operation: 'listMerchants', method: 'GET', status: '200' },
      { operation: 'listMerchants', method: 'GET', status: '401' },
      { operation: 'getMerchant', method: 'GET', status: '200' },
      { operation: 'unmatched', method: 'GET', status: '404' },
      { operation: 'healthz', method: 'GET', status: '200' },
    ];
    for (let i = 0; i < 3; i++) expect((await m.api('GET', '/v1/merchants')).status).toBe(200);
    expect((await anon('GET', '/v1/merchants')).status).toBe(401); // counted under its operation, before auth
    expect((await m.api('GET', `/v1/merchants/${m.merchantId}`)).status).toBe(200);
    expect((await anon('GET', '/no/such/path/here')).status).toBe(404);
    expect((await anon('GET', '/healthz')).status).toBe(200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
    expect(ops.map((l) => delta('paygate_http_requests_total', l))).toEqual([3, 1, 1, 1, 1]);
    expect(ops.map((l) => delta('paygate_http_request_duration_seconds_count', l))).toEqual([3, 1, 1, 1, 1]);
    expect(delta('paygate_http_request_duration_seconds_bucket', { ...ops[0], le: '+Inf' })).toBe(3);
    expect(delta('paygate_http_request_duration_seconds_sum', ops[0])).toBeGreaterThan(0);
    // No label value carries a path (ids in paths would make one series per resource).
    expect(after.filter((s) => s.name.startsWith('paygate_http_')).some((s) => s.labels.operation?.includes('/'))).toBe(false);
  });

  it('paygate_longpoll_waiters goes up while a long-poll waits and back down when it answers', async () => {
    const waiters = async () => sampleValue(await scrape(), 'paygate_longpoll_waiters');
    const base = await waiters();
    const created = await m.asMerchant('POST', '/v1/payments', { body: { referenceId: uniqueKey('lp'), amount: usd() } });
    expect(created.status).toBe(201);
    const id = created.body.paymentId as string;
    const poll = m.asMerchant('GET', `/v1/payments/${id}/status?maxPollMs=20000`);
    const deadline = Date.now() + 5000;
    while ((await waiters()) !== base + 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await waiters()).toBe(base + 1);
    expect((await m.asMerchant('POST', `/v1/payments/${id}/cancel`)).status).toBe(200);
    const answered = await poll;
    expect(answered.status).toBe(200);
    expect(answered.body.status).toBe('cancelled');
    expect(await waiters()).toBe(base);
  });
});
