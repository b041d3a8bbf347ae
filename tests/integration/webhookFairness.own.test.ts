import { eventually } from '../support/eventually';
import { FakeDns, startFakeDns } from '../support/fakeDns';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, startTestService, TestService } from '../support/service';
import { ServiceProcess, spawnService } from '../support/serviceProcess';
import { maxOpenAtOnce, Receiver, startReceiver } from '../support/webhookReceiver';

// Fairness between partners: one partner's tarpit endpoints (they accept the connection and never answer)
// may hold only its share of the delivery slots, in one process and across processes, while the others'
// deliveries keep arriving; and a partner's black-holed DNS zone costs a prompt refusal at registration
// and a failed attempt at delivery, never a stall. Real HTTPS receivers, real DNS over UDP (a fake server
// on 127.0.0.1 that the service's resolver is pointed at), the real service over HTTP.
// Its own file: every service in a file shares the database and works the same delivery queue.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
const TIMEOUT_MS = 8000; // how long a tarpit holds an attempt (WEBHOOK_TIMEOUT_MS)
const DNS_TIMEOUT_MS = 1500;
const BLACKHOLED = 'hooks.blackholed.test';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function partner(url: string, name: string) {
  const m = await merchantWithSettlement({ url, directUrl: url } as TestService, name);
  return { ...m, hooks: client(url, { 'Api-Key': m.apiKey, ...PREVIEW }) };
}
type Partner = Awaited<ReturnType<typeof partner>>;

async function endpoint(p: Partner, url: string, enabledEvents = ['payment.created']) {
  const r = await p.hooks('POST', '/v1/webhook-endpoints', { body: { url, enabledEvents }, headers: { 'Idempotency-Key': uniqueKey() } });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.endpoint as { id: string };
}

async function newPayment(p: Partner) {
  const r = await p.asMerchant('POST', '/v1/payments', {
    body: { referenceId: uniqueKey('fair'), amount: { unit: 'iso4217/USD', value: '100' } },
  });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.paymentId as string;
}

const paymentOf = (r: { body: any }) => r.body?.data?.payment?.paymentId as string;
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, min: s[0], p50: s[Math.floor((s.length - 1) / 2)], max: s[s.length - 1] };
};
/** Deleting an endpoint cancels what it still has queued: nothing of a test is left retrying. */
const cleanup = async (p: Partner, ids: string[], receivers: Receiver[]) => {
  for (const id of ids) await p.hooks('DELETE', `/v1/webhook-endpoints/${id}`);
  for (const r of receivers) await r.close();
};

describe('in one process', () => {
  let svc: TestService;
  let dns: FakeDns;
  beforeAll(async () => {
    dns = await startFakeDns();
    dns.blackholed.add(BLACKHOLED);
    dns.blackholed.add(`full.${BLACKHOLED}`);
    svc = await startTestService({
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '4',
      WEBHOOK_MAX_IN_FLIGHT_PER_ACCOUNT: '8',
      WEBHOOK_DNS_SERVERS: dns.server,
      WEBHOOK_DNS_TIMEOUT_MS: String(DNS_TIMEOUT_MS),
      WEBHOOK_ALLOWED_HOSTS: `127.0.0.1,localhost,${BLACKHOLED}`,
    });
  }, 60_000); // starts a service (and the admin command): slow on a busy machine
  afterAll(async () => {
    await svc?.close();
    await dns?.close();
  });

  it("a partner whose endpoints are tarpits holds only its share; another partner's events keep arriving", async () => {
    const a = await partner(svc.url, 'Tarpit');
    const b = await partner(svc.url, 'Prompt');
    const pits = [await startReceiver(), await startReceiver(), await startReceiver()];
    for (const pit of pits) pit.respond = () => 'hang';
    const prompt = await startReceiver();
    const aEndpoints: string[] = [];
    const bEndpoints: string[] = [];
    try {
      for (const pit of pits) aEndpoints.push((await endpoint(a, pit.url)).id);
      // B's receiver by name: localhost resolves to loopback without a DNS query.
      bEndpoints.push((await endpoint(b, prompt.url.replace('127.0.0.1', 'localhost'))).id);

      // A queues 60 deliveries (20 events, 3 endpoints): far more than the 32 slots of the process.
      for (let i = 0; i < 4; i++) await Promise.all(Array.from({ length: 5 }, () => newPayment(a)));
      const aOpen = () => pits.reduce((n, p) => n + p.open(), 0);
      expect(
        await eventually(
          async () => aOpen(),
          (n) => n >= 8,
          10_000,
        ),
      ).toBe(8);
      const firstStuck = Math.min(...pits.flatMap((p) => p.received.map((r) => r.at)));

      // While A's attempts are stuck, B's events arrive one after another.
      const sentAt = new Map<string, number>();
      for (let i = 0; i < 10; i++) {
        const before = Date.now();
        sentAt.set(await newPayment(b), before);
      }
      const got = await prompt.until((all) => all.filter((r) => sentAt.has(paymentOf(r))).length >= 10, TIMEOUT_MS);
      const mine = got.filter((r) => sentAt.has(paymentOf(r)));
      const lastB = Math.max(...mine.map((r) => r.at));
      const latency = stats(mine.map((r) => r.at - sentAt.get(paymentOf(r))!));
      console.log(
        `B's deliveries while A's 8 attempts hang: latency from the payment request ${JSON.stringify(latency)} ms; last B arrival ${lastB - firstStuck} ms after A's first stuck request (A times out at ${TIMEOUT_MS} ms)`,
      );
      expect(lastB).toBeLessThan(firstStuck + TIMEOUT_MS);
      const aRequests = pits.flatMap((p) => p.received);
      expect(aRequests.every((r) => r.closedAt === null || r.closedAt > lastB)).toBe(true); // A's were all still stuck
      expect(aRequests).toHaveLength(8);

      // In the database: 8 of A's deliveries leased, the rest waiting unleased (holding no slot).
      const [leased] = await svc
        .db('webhook_deliveries')
        .where({ account_id: a.accountId, status: 'pending' })
        .andWhere('locked_until', '>=', svc.db.fn.now())
        .count('* as n');
      const [waiting] = await svc
        .db('webhook_deliveries')
        .where({ account_id: a.accountId, status: 'pending' })
        .andWhere((q) => q.whereNull('locked_until').orWhere('locked_until', '<', svc.db.fn.now()))
        .count('* as n');
      expect({ leased: Number(leased.n), waiting: Number(waiting.n) }).toEqual({ leased: 8, waiting: 52 });

      // A's attempts time out and A goes on, still within its share: 4 per endpoint, 8 for the account.
      await eventually(
        async () => pits.reduce((n, p) => n + p.received.length, 0),
        (n) => n >= 12,
        TIMEOUT_MS + 10_000,
        100,
      );
      expect(pits.reduce((n, p) => n + p.received.length, 0)).toBeGreaterThanOrEqual(12);
      for (const p of pits) expect(maxOpenAtOnce(p)).toBeLessThanOrEqual(4);
      expect(maxOpenAtOnce(...pits)).toBe(8);
      const recorded = await eventually(
        async () => (await a.hooks('GET', `/v1/events/${aRequests[0].body.id}/attempts`)).body.attempts,
        (x: any[]) => x.length >= 1,
        10_000,
        100,
      );
      expect(recorded[0]).toMatchObject({ responseStatus: null, error: `timeout after ${TIMEOUT_MS} ms`, succeeded: false });
    } finally {
      await cleanup(a, aEndpoints, pits);
      await cleanup(b, bEndpoints, [prompt]);
    }
  }, 120_000);

  it('a black-holed DNS zone: a prompt 400 at registration (no transaction open meanwhile), a failed attempt at delivery', async () => {
    const a = await partner(svc.url, 'Dark Zone');
    const b = await partner(svc.url, 'Bright Zone');
    const prompt = await startReceiver();
    const spare = await startReceiver();
    const aEndpoints: string[] = [];
    const bEndpoints: string[] = [];
    try {
      // Registration: the resolver asks the (silent) servers, gives up at WEBHOOK_DNS_TIMEOUT_MS, and says so.
      const key = uniqueKey();
      const started = Date.now();
      const pending = a.hooks('POST', '/v1/webhook-endpoints', {
        body: { url: `https://${BLACKHOLED}/paygate`, enabledEvents: ['payment.created'] },
        headers: { 'Idempotency-Key': key },
      });
      await eventually(
        async () => dns.queries.get(BLACKHOLED) ?? 0,
        (n) => n >= 1,
        10_000,
        10,
      );
      await sleep(DNS_TIMEOUT_MS / 2);
      // Mid-wait: no connection of the service sits in an open transaction (the Idempotency-Key is not claimed yet).
      const {
        rows: [idle],
      } = await svc.db.raw(`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND state LIKE 'idle in transaction%' AND state_change < now() - interval '300 milliseconds'`);
      const r = await pending;
      const ms = Date.now() - started;
      console.log(
        `registration with a black-holed DNS zone: ${r.status} after ${ms} ms (WEBHOOK_DNS_TIMEOUT_MS=${DNS_TIMEOUT_MS}); ${dns.queries.get(BLACKHOLED)} DNS queries`,
      );
      expect({ status: r.status, code: r.body.code, field: r.body.issues?.[0]?.field }).toEqual({
        status: 400,
        code: 'params_validation',
        field: '/url',
      });
      expect(r.body.issues[0].message).toMatch(
        /DNS servers did not answer in time or failed \(no answer within 1500 ms\); try again later/,
      );
      expect(ms).toBeGreaterThanOrEqual(DNS_TIMEOUT_MS - 100);
      expect(ms).toBeLessThan(TIMEOUT_MS); // generous: the point is that it ends, at the DNS deadline
      expect(idle.n).toBe(0);
      // Refused before the key was claimed, like a schema error: nothing stored, the same key may try again.
      expect(await svc.db('idempotency_keys').where({ key })).toEqual([]);
      const again = await a.hooks('POST', '/v1/webhook-endpoints', {
        body: { url: `https://${BLACKHOLED}/paygate`, enabledEvents: ['payment.created'] },
        headers: { 'Idempotency-Key': key },
      });
      expect(again.status).toBe(400);
      expect(again.headers.get('idempotent-replayed')).toBeNull();
      expect(await svc.db('webhook_endpoints').where({ account_id: a.accountId })).toEqual([]);

      // Delivery: an endpoint whose zone goes dark later (the URL is changed under it) fails its attempts at
      // the DNS deadline, well before the request timeout; B's deliveries go on meanwhile.
      const dark = await endpoint(a, spare.url);
      aEndpoints.push(dark.id);
      await svc
        .db('webhook_endpoints')
        .where({ id: dark.id })
        .update({ url: `https://${BLACKHOLED}/paygate` });
      bEndpoints.push((await endpoint(b, prompt.url.replace('127.0.0.1', 'localhost'))).id);
      const aPayments = await Promise.all(Array.from({ length: 6 }, () => newPayment(a)));
      const sentAt = new Map<string, number>();
      for (let i = 0; i < 6; i++) {
        const before = Date.now();
        sentAt.set(await newPayment(b), before);
      }
      const got = (await prompt.until((all) => all.filter((x) => sentAt.has(paymentOf(x))).length >= 6, TIMEOUT_MS)).filter((x) =>
        sentAt.has(paymentOf(x)),
      );
      console.log(
        `B's deliveries while A's host does not resolve: latency ${JSON.stringify(stats(got.map((x) => x.at - sentAt.get(paymentOf(x))!)))} ms`,
      );
      const events = (await a.hooks('GET', `/v1/events?paymentId=${aPayments[0]}`)).body.events;
      const attempts = await eventually(
        async () => (await a.hooks('GET', `/v1/events/${events[0].id}/attempts`)).body.attempts,
        (x: any[]) => x.length >= 1,
        15_000,
        100,
      );
      expect(attempts[0]).toMatchObject({
        succeeded: false,
        responseStatus: null,
        error: `dns: ${BLACKHOLED} did not resolve (no answer within ${DNS_TIMEOUT_MS} ms)`,
      });
      expect(attempts[0].durationMs).toBeGreaterThanOrEqual(DNS_TIMEOUT_MS - 100);
      expect(attempts[0].durationMs).toBeLessThan(TIMEOUT_MS);
      console.log(`delivery attempt to a black-holed zone failed after ${attempts[0].durationMs} ms (request timeout ${TIMEOUT_MS} ms)`);
      expect(spare.received).toEqual([]);
    } finally {
      await cleanup(a, aEndpoints, [spare]);
      await cleanup(b, bEndpoints, [prompt]);
    }
  }, 120_000);

  it('an account at its endpoint limit is refused before any DNS query', async () => {
    const a = await partner(svc.url, 'Full');
    const rx = await startReceiver();
    try {
      for (let i = 0; i < 16; i++) await endpoint(a, rx.url);
      const started = Date.now();
      const r = await a.hooks('POST', '/v1/webhook-endpoints', {
        body: { url: `https://full.${BLACKHOLED}/x`, enabledEvents: ['payment.created'] },
        headers: { 'Idempotency-Key': uniqueKey() },
      });
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 409, code: 'webhook_endpoint_limit' });
      expect(Date.now() - started).toBeLessThan(DNS_TIMEOUT_MS);
      expect(dns.queries.get(`full.${BLACKHOLED}`)).toBeUndefined();
    } finally {
      await rx.close();
    }
  }, 60_000);
});

describe('across processes', () => {
  // A service process of its own and a service in this test's process: two processes, sharing only the database.
  let p1: ServiceProcess | undefined;
  let p2: TestService | undefined;
  afterAll(async () => {
    await p1?.kill();
    await p2?.close();
  });

  it('the caps hold for all processes together: 4 attempts per endpoint, 8 per account', async () => {
    const env = { WEBHOOK_TIMEOUT_MS: '20000', WEBHOOK_LEASE_MARGIN_MS: '5000' }; // no tarpit attempt ends during the test
    [p1, p2] = await Promise.all([spawnService(env), startTestService(env)]);
    // A: three tarpit endpoints (the account's cap binds); S: one (the endpoint's cap binds).
    const a = await partner(p1.url, 'Tarpit Everywhere');
    const s = await partner(p2.url, 'Single Tarpit');
    const pits = [await startReceiver(), await startReceiver(), await startReceiver()];
    const single = await startReceiver();
    for (const pit of [...pits, single]) pit.respond = () => 'hang';
    const aIds: string[] = [];
    const sIds: string[] = [];
    try {
      for (const pit of pits) aIds.push((await endpoint(a, pit.url)).id);
      sIds.push((await endpoint(s, single.url)).id);
      for (let i = 0; i < 4; i++) await Promise.all([newPayment(a), newPayment(s), newPayment(s)]);
      await eventually(
        async () => pits.reduce((n, p) => n + p.open(), 0) + single.open(),
        (n) => n >= 12,
        15_000,
      );
      // More deliveries, handed to each process's own workers (a redelivery is queued by the process that
      // answers it and wakes its worker): a process that counted only its own attempts would start them.
      for (const [p, ids] of [
        [a, aIds],
        [s, sIds],
      ] as const) {
        const viaP1 = client(p1.url, { 'Api-Key': p.apiKey, ...PREVIEW });
        const viaP2 = client(p2.url, { 'Api-Key': p.apiKey, ...PREVIEW });
        const events = (await p.hooks('GET', '/v1/events?type=payment.created')).body.events as { id: string }[];
        for (const [i, ev] of events.entries()) {
          for (const id of ids)
            expect((await (i % 2 ? viaP2 : viaP1)('POST', `/v1/events/${ev.id}/redeliver`, { body: { endpointId: id } })).status).toBe(202);
        }
      }
      await sleep(2000);
      console.log(
        `two processes: account A (3 tarpit endpoints) most open at once per endpoint ${JSON.stringify(pits.map((p) => maxOpenAtOnce(p)))}, account ${maxOpenAtOnce(...pits)}; account S (1 tarpit endpoint) ${maxOpenAtOnce(single)}`,
      );
      for (const p of pits) expect(maxOpenAtOnce(p)).toBeLessThanOrEqual(4);
      expect(maxOpenAtOnce(...pits)).toBe(8);
      expect(maxOpenAtOnce(single)).toBe(4);
      expect(pits.reduce((n, p) => n + p.received.length, 0) + single.received.length).toBe(12); // none ended, none more started
    } finally {
      for (const id of aIds) await a.hooks('DELETE', `/v1/webhook-endpoints/${id}`);
      for (const id of sIds) await s.hooks('DELETE', `/v1/webhook-endpoints/${id}`);
      for (const p of [...pits, single]) await p.close();
    }
  }, 120_000);
});
