import { newBuyer } from '../support/chain';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, newAccount, newKey, startTestService, TestService } from '../support/service';

// What one caller can consume: requests per account and per credential (shared by every process), requests
// per IP on the hosted pages, concurrent long-polls, and quotes per payment and buyer account. Limits are set low here
// to see them act; the defaults are generous (docs/configuration.md).

jest.setTimeout(120_000);

// Windows of 2 s here (RATE_LIMIT_WINDOW_MS), so that a burst on a busy machine stays inside one: the
// per-second limits below then allow twice as many per window (account 10, credential 6, IP 4).
const WINDOW_MS = 2000;
/** Waits for the start of a window, so a short burst stays inside it. */
async function startOfSecond() {
  while (Date.now() % WINDOW_MS > 30) await new Promise((r) => setTimeout(r, 5));
}

describe('request limits', () => {
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    const env = {
      RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
      RATE_LIMIT_ACCOUNT_PER_S: '5',
      RATE_LIMIT_CREDENTIAL_PER_S: '3',
      RATE_LIMIT_IP_PER_S: '2',
      LONGPOLL_MAX_PER_CREDENTIAL: '2',
    };
    a = await startTestService(env);
    b = await startTestService(env); // a second process on the same database
  }, 90_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('a flood from one credential gets 429 rate_limited with Retry-After; another account is not affected', async () => {
    const other = await newAccount('Other');
    // All of the flood in one window, as on a loaded machine it may not be: then again.
    for (let round = 1; ; round++) {
      const flooder = await newAccount('Flooder');
      await startOfSecond();
      const window = Math.floor(Date.now() / WINDOW_MS);
      const rs = await Promise.all(Array.from({ length: 12 }, () => client(a.url, { 'Api-Key': flooder.apiKey })('GET', '/v1/merchants')));
      if (Math.floor(Date.now() / WINDOW_MS) !== window && round < 5) continue;
      const limited = rs.filter((r) => r.status === 429);
      expect(rs.filter((r) => r.status === 200).length).toBeLessThanOrEqual(6);
      expect(limited.length).toBeGreaterThanOrEqual(6);
      expect(limited[0].body).toMatchObject({ code: 'rate_limited', requestId: expect.stringMatching(/^req_/) });
      expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      break;
    }
    expect((await client(a.url, { 'Api-Key': other.apiKey })('GET', '/v1/merchants')).status).toBe(200);
  });

  it('the account limit holds across processes: counts of both are shared through PostgreSQL', async () => {
    // Both rounds must fall in one window; on a loaded machine they may not, and then the round says nothing: again.
    for (let round = 1; ; round++) {
      const acct = await newAccount('Two processes');
      const second = await newKey(acct.accountId, 'partner');
      await startOfSecond();
      const window = Math.floor(Date.now() / WINDOW_MS);
      // 6 per credential at most: 5 through each process, with two keys of one account (limit 10 in all).
      const first = await Promise.all(Array.from({ length: 5 }, () => client(a.url, { 'Api-Key': acct.apiKey })('GET', '/v1/merchants')));
      await new Promise((r) => setTimeout(r, 250)); // a sync period (100 ms) and then some
      const then = await Promise.all(Array.from({ length: 7 }, () => client(b.url, { 'Api-Key': second.apiKey })('GET', '/v1/merchants')));
      if (Math.floor(Date.now() / WINDOW_MS) !== window && round < 5) continue;
      expect(first.every((r) => r.status === 200)).toBe(true);
      const ok = then.filter((r) => r.status === 200).length;
      expect(ok).toBeLessThanOrEqual(5); // b knew of a's 5: not 6 (its credential limit) or 7
      expect(then.some((r) => r.status === 429 && r.body.code === 'rate_limited')).toBe(true);
      return;
    }
  });

  it('concurrent long-polls per credential are capped; a slot frees when a poll ends', async () => {
    const m = await merchantWithSettlement(a, 'Polls');
    const pay = async () =>
      (await m.asMerchant('POST', '/v1/payments', { body: { referenceId: uniqueKey(), amount: { unit: 'iso4217/USD', value: '100' } } }))
        .body.paymentId;
    const [p1, p2, p3] = [await pay(), await pay(), await pay()];
    await startOfSecond(); // a fresh rate window: what follows is about the long-poll cap
    const waiting = [p1, p2].map((id) => m.asMerchant('GET', `/v1/payments/${id}/status?maxPollMs=1500`));
    await new Promise((r) => setTimeout(r, 300));
    const third = await m.asMerchant('GET', `/v1/payments/${p3}/status?maxPollMs=1500`);
    expect({ status: third.status, code: third.body.code }).toEqual({ status: 429, code: 'rate_limited' });
    expect((await m.asMerchant('GET', `/v1/payments/${p3}/status`)).status).toBe(200); // a plain read is no long-poll
    await Promise.all(waiting);
    await startOfSecond(); // the next rate window
    expect((await m.asMerchant('GET', `/v1/payments/${p3}/status?maxPollMs=100`)).status).toBe(200);
  });

  it('the hosted pages limit each client IP', async () => {
    const m = await merchantWithSettlement(b, 'Hosted');
    await startOfSecond();
    const id = (
      await m.asMerchant('POST', '/v1/payments', { body: { referenceId: uniqueKey(), amount: { unit: 'iso4217/USD', value: '100' } } })
    ).body.paymentId;
    await startOfSecond();
    const rs = await Promise.all(Array.from({ length: 8 }, () => client(b.url)('GET', `/pay/${id}/status`)));
    expect(rs.filter((r) => r.status === 200).length).toBeLessThanOrEqual(4);
    expect(rs.find((r) => r.status === 429)?.body.code).toBe('rate_limited');
  });
});

describe('options per payment', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ OPTIONS_MAX_PER_PAYMENT: '3', QUOTE_TTL_SECONDS: '5' });
  }, 90_000);
  afterAll(() => svc?.close());

  it('a wallet quoting in a loop holds at most 3 valid quotes per buyer account; expired ones are purged (400, reason option_not_found)', async () => {
    const m = await merchantWithSettlement(svc, 'Quotes');
    const gw = client(svc.url, { 'Api-Key': (await newKey(m.accountId, 'wallet')).apiKey });
    const buyer = await newBuyer(10_000_000n);
    const id = (
      await m.asMerchant('POST', '/v1/payments', { body: { referenceId: uniqueKey(), amount: { unit: 'iso4217/USD', value: '100' } } })
    ).body.paymentId;
    const ask = () => gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [`eip155:31337:${buyer.address}`] } });
    const quotes: any[] = [];
    for (let i = 0; i < 3; i++) quotes.push((await ask()).body.options[0]);
    const over = await ask();
    expect({ status: over.status, code: over.body.code }).toEqual({ status: 429, code: 'rate_limited' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Once they have expired, new quotes purge them, the oldest first: 3 are kept.
    await new Promise((r) => setTimeout(r, Math.max(...quotes.map((q) => q.expiresAt)) * 1000 - Date.now() + 1200));
    for (let i = 0; i < 3; i++) quotes.push((await ask()).body.options[0]);
    expect(await svc.db('payment_options').where({ payment_id: id })).toHaveLength(3);
    const first = quotes[0];
    const sig = await buyer.signTypedData(JSON.parse(first.actions[0].data.params[1]));
    const r = await gw('POST', `/v1/gateway/payment/${id}/confirm`, {
      body: { optionId: first.id, results: [{ type: 'walletRpc', data: [sig] }] },
    });
    expect({ status: r.status, code: r.body.code, reason: r.body.reason }).toEqual({
      status: 400,
      code: 'invalid_params',
      reason: 'option_not_found',
    });
    const last = quotes[5];
    const ok = await gw('POST', `/v1/gateway/payment/${id}/confirm`, {
      body: {
        optionId: last.id,
        results: [{ type: 'walletRpc', data: [await buyer.signTypedData(JSON.parse(last.actions[0].data.params[1]))] }],
      },
    });
    expect(ok.body.status).toBe('processing');
  });
});
