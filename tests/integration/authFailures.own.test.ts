import { randomBytes } from 'node:crypto';
import { client, newAccount, startTestService, TestService } from '../support/service';

// Requests that fail authentication (issue 28, finding 12) were never limited and each cost a query: an unknown
// API key, an unknown App-Id, and /readyz (no credentials at all). Unknown credentials are now remembered for a
// while (each costs one query, not one per request), failures are limited per client address (beyond the limit:
// 429 without a query), and concurrent readiness checks share one query. The service's own query log (knex's
// `query` event on its pool) says what each request cost.

jest.setTimeout(120_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Windows of 2 s, so that a burst on a busy machine stays inside one: 10 failures per address in each.
const WINDOW_MS = 2000;
const startOfWindow = async () => {
  while (Date.now() % WINDOW_MS > 30) await sleep(5);
};
const b62 = (n: number) =>
  Array.from(randomBytes(n), (b) => '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'[b % 62]).join('');
/** A well-formed API key that was never issued. */
const unknownKey = () => `pgk_${b62(16)}_${b62(43)}`;

describe('requests that fail authentication', () => {
  let svc: TestService;
  const queries = { keys: 0, apps: 0, pings: 0 };
  let seq = 0;
  /** A client address of its own for each test (the service believes one X-Forwarded-For hop). */
  const from = () => `198.51.100.${++seq}`;
  beforeAll(async () => {
    svc = await startTestService({
      TRUSTED_PROXY_HOPS: '1',
      RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
      RATE_LIMIT_AUTH_FAILURES_PER_IP_PER_S: '5',
    });
    svc.db.on('query', (q: { sql: string }) => {
      if (/from "api_keys"/i.test(q.sql)) queries.keys++;
      else if (/from "apps"/i.test(q.sql)) queries.apps++;
      else if (q.sql === 'select 1') queries.pings++;
    });
  }, 90_000);
  afterAll(() => svc?.close());

  it('the same unknown API key, or App-Id, costs one query, not one per request', async () => {
    const ip = from();
    await startOfWindow();
    const key = unknownKey();
    const before = { ...queries };
    const asKey = [];
    for (let i = 0; i < 6; i++) asKey.push(await client(svc.directUrl, { 'Api-Key': key, 'X-Forwarded-For': ip })('GET', '/v1/merchants'));
    expect(asKey.map((r) => `${r.status} ${r.body.code}`)).toEqual(Array(6).fill('401 invalid_api_key'));
    expect(queries.keys - before.keys).toBe(1);

    const app = { 'App-Id': `app_${b62(22)}`, 'Client-Id': `pgc_${b62(43)}`, 'X-Forwarded-For': from() };
    const asApp = [];
    for (let i = 0; i < 4; i++) asApp.push(await client(svc.directUrl, app)('GET', `/v1/gateway/payment/pay_${b62(22)}`));
    expect(asApp.map((r) => `${r.status} ${r.body.code}`)).toEqual(Array(4).fill('401 invalid_api_key'));
    expect(queries.apps - before.apps).toBe(1);
  });

  it('failures beyond the limit of an address are 429 with Retry-After, without a query; other addresses and known keys go on', async () => {
    const known = await newAccount('Known key');
    const ip = from();
    await startOfWindow();
    // The known key is verified (one query) before the flood, from another address.
    expect((await client(svc.directUrl, { 'Api-Key': known.apiKey, 'X-Forwarded-For': from() })('GET', '/v1/merchants')).status).toBe(200);
    const before = queries.keys;
    const rs = [];
    for (let i = 0; i < 14; i++)
      rs.push(await client(svc.directUrl, { 'Api-Key': unknownKey(), 'X-Forwarded-For': ip })('GET', '/v1/merchants'));
    expect(rs.slice(0, 10).map((r) => r.status)).toEqual(Array(10).fill(401));
    expect(rs.slice(10).map((r) => `${r.status} ${r.body.code}`)).toEqual(Array(4).fill('429 rate_limited'));
    expect(Number(rs[13].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(queries.keys - before).toBe(10); // the 4 refused cost none
    // From the same address, a key this process already verified goes on; another address is not limited.
    expect((await client(svc.directUrl, { 'Api-Key': known.apiKey, 'X-Forwarded-For': ip })('GET', '/v1/merchants')).status).toBe(200);
    const elsewhere = await client(svc.directUrl, { 'Api-Key': unknownKey(), 'X-Forwarded-For': from() })('GET', '/v1/merchants');
    expect(elsewhere.status).toBe(401);
  });

  it('IPv6 addresses count by their /64: a client that changes address within its block meets the same limit', async () => {
    const block = `2001:db8:${(++seq).toString(16)}:77`;
    await startOfWindow();
    const rs = [];
    // Each request from another address of the block, written as clients and proxies may write them.
    for (let i = 0; i < 12; i++) {
      const address = i % 2 ? `${block}:0:0:0:${(i + 1).toString(16)}` : `${block.toUpperCase()}:${i + 1}::${i + 7}`;
      rs.push(await client(svc.directUrl, { 'Api-Key': unknownKey(), 'X-Forwarded-For': address })('GET', '/v1/merchants'));
    }
    expect(rs.slice(0, 10).map((r) => r.status)).toEqual(Array(10).fill(401));
    expect(rs.slice(10).map((r) => `${r.status} ${r.body.code}`)).toEqual(Array(2).fill('429 rate_limited'));
    // The next /64 is another subscriber.
    const neighbour = await client(svc.directUrl, { 'Api-Key': unknownKey(), 'X-Forwarded-For': `${block.slice(0, -1)}8::1` })(
      'GET',
      '/v1/merchants',
    );
    expect(neighbour.status).toBe(401);
  });

  it('a burst of readiness checks costs one query per second it lasts', async () => {
    await sleep(1500); // no readiness answer to reuse
    const before = queries.pings;
    const started = Date.now();
    const rs = await Promise.all(Array.from({ length: 40 }, () => client(svc.directUrl)('GET', '/readyz')));
    // An answer is reused for a second (READY_REUSE_MS): on a loaded machine the 40 may take longer than that.
    const periods = 1 + Math.floor((Date.now() - started) / 1000);
    expect(rs.map((r) => r.status)).toEqual(Array(40).fill(200));
    expect(queries.pings - before).toBeGreaterThanOrEqual(1);
    expect(queries.pings - before).toBeLessThanOrEqual(periods);
  });
});
