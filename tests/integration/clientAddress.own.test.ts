import { randomBytes } from 'node:crypto';
import { eventually } from '../support/eventually';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { useOwnDatabase } from '../support/freshDb';
import { parseExposition, sampleValue } from '../support/prometheus';
import { client, startTestService, TestService } from '../support/service';

// Who a client of the hosted pages is, for its per-IP limits (issue 28, findings 10 and 11): the socket
// address, or with TRUSTED_PROXY_HOPS=N the N-th X-Forwarded-For entry from the right (the one the outermost
// trusted proxy appended); never what the client wrote itself. And whatever a client writes there, the
// counts of every process keep being shared through PostgreSQL and freed when their window ends.

jest.setTimeout(120_000);
// Its own database: a test below makes PostgreSQL refuse one key's counter (a trigger on rate_counters).
useOwnDatabase('client_address');

// Windows of 2 s (RATE_LIMIT_WINDOW_MS), so a burst on a busy machine stays inside one: 8 requests per IP in each.
const WINDOW_MS = 2000;
async function startOfWindow() {
  while (Date.now() % WINDOW_MS > 30) await new Promise((r) => setTimeout(r, 5));
}
const ENV = { RATE_LIMIT_WINDOW_MS: String(WINDOW_MS), RATE_LIMIT_IP_PER_S: '4', LONGPOLL_MAX_PER_IP: '2' };

describe('the client address of the per-IP limits', () => {
  let direct: TestService; // TRUSTED_PROXY_HOPS unset: clients connect to it themselves
  let a: TestService; // two processes behind one proxy, on the same database
  let b: TestService;
  let payment: string;
  beforeAll(async () => {
    direct = await startTestService(ENV);
    a = await startTestService({ ...ENV, TRUSTED_PROXY_HOPS: '1' });
    b = await startTestService({ ...ENV, TRUSTED_PROXY_HOPS: '1' });
    const m = await merchantWithSettlement(a, 'Client address');
    const r = await m.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey(), amount: { unit: 'iso4217/USD', value: '100' } },
    });
    payment = r.body.paymentId;
  }, 90_000);
  afterAll(async () => {
    await direct?.close();
    await a?.close();
    await b?.close();
  });

  /** A hosted status request (a long-poll of `pollMs` when given) with this X-Forwarded-For. */
  const status = (svc: TestService, forwardedFor: string, pollMs?: number) =>
    client(svc.directUrl, { 'X-Forwarded-For': forwardedFor })('GET', `/pay/${payment}/status${pollMs ? `?maxPollMs=${pollMs}` : ''}`);
  const statuses = (rs: { status: number }[]) => rs.map((r) => r.status).sort();

  it('without trusted proxies X-Forwarded-For is ignored: forged addresses share the socket address cap of 2 long-polls', async () => {
    await startOfWindow();
    const rs = await Promise.all(Array.from({ length: 6 }, (_, i) => status(direct, `198.51.100.${i + 1}`, 1500)));
    expect(statuses(rs)).toEqual([200, 200, 429, 429, 429, 429]);
    expect(rs.find((r) => r.status === 429)?.body.code).toBe('rate_limited');
  });

  it('behind one trusted proxy the client is the entry it appended (the rightmost): a forged leftmost entry changes nothing', async () => {
    await startOfWindow();
    const forged = Array.from({ length: 6 }, (_, i) => status(a, `198.51.100.${i + 1}, 203.0.113.7`, 1500));
    const others = ['203.0.113.8', '2001:db8::9'].map((ip) => status(a, `198.51.100.1, ${ip}`, 1500));
    expect(statuses(await Promise.all(forged))).toEqual([200, 200, 429, 429, 429, 429]);
    expect(statuses(await Promise.all(others))).toEqual([200, 200]); // other clients of the proxy have their own caps
  });

  it('an 8,000-character X-Forwarded-For is not an address: the counts of every process are still shared', async () => {
    await startOfWindow();
    const junk = [randomBytes(6000).toString('base64'), `1.2.3.4, ${'a'.repeat(8000)}`, `fe80::1%${'x'.repeat(8000)}`];
    for (const xff of junk) expect((await status(a, xff)).status).toBe(200); // counted as the socket address
    // 6 of 203.0.113.20's 8 per window through a; b must learn of them from the shared counter.
    expect(statuses(await Promise.all(Array.from({ length: 6 }, () => status(a, '203.0.113.20'))))).toEqual(Array(6).fill(200));
    await new Promise((r) => setTimeout(r, 300)); // a sync period (100 ms) and then some
    const then = await Promise.all(Array.from({ length: 6 }, () => status(b, '203.0.113.20')));
    expect(then.filter((r) => r.status === 200).length).toBeLessThanOrEqual(2);
  });

  it('a key PostgreSQL refuses is counted locally only: the others still sync, the failure is counted, old windows are freed', async () => {
    await a.db.raw(`CREATE FUNCTION refuse_key() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.key = 'ip:203.0.113.66' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`);
    await a.db.raw('CREATE TRIGGER refuse_key BEFORE INSERT ON rate_counters FOR EACH ROW EXECUTE FUNCTION refuse_key()');
    try {
      await startOfWindow();
      const sent = await Promise.all([
        ...Array.from({ length: 6 }, () => status(a, '203.0.113.66')),
        ...Array.from({ length: 6 }, () => status(a, '203.0.113.21')),
      ]);
      expect(sent.every((r) => r.status === 200)).toBe(true);
      await new Promise((r) => setTimeout(r, 300));
      const then = await Promise.all(Array.from({ length: 6 }, () => status(b, '203.0.113.21')));
      expect(then.filter((r) => r.status === 200).length).toBeLessThanOrEqual(2); // 203.0.113.21 synced beside the refused key
      // Still limited where it was counted: the refused key's local count holds in a.
      expect((await Promise.all(Array.from({ length: 3 }, () => status(a, '203.0.113.66')))).some((r) => r.status === 429)).toBe(true);
      const metrics = async () => parseExposition((await client(a.directUrl)('GET', '/metrics')).text);
      const seen = await metrics();
      expect(sampleValue(seen, 'paygate_rate_limit_sync_failures_total', { scope: 'batch' })).toBeGreaterThanOrEqual(1);
      expect(sampleValue(seen, 'paygate_rate_limit_sync_failures_total', { scope: 'key' })).toBeGreaterThanOrEqual(1);
      // No requests now: every window ends and its counters are freed, the refused key's too.
      const after = await eventually(metrics, (s) => sampleValue(s, 'paygate_rate_limit_counters') === 0, 3 * WINDOW_MS);
      expect(sampleValue(after, 'paygate_rate_limit_counters')).toBe(0);
    } finally {
      await a.db.raw('DROP TRIGGER refuse_key ON rate_counters; DROP FUNCTION refuse_key()');
    }
  });
});
