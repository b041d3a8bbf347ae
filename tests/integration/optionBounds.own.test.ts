import { newBuyer, newWallet } from '../support/chain';
import { eventually } from '../support/eventually';
import { shopWithWallet } from '../support/fixtures';
import { usdtShop } from '../support/permit2';
import { startRpcProxy, type RpcCall } from '../support/rpcProxy';
import { client, startTestService, TestService } from '../support/service';

// A payment link wrote option rows without bound (issue 44, finding 5): the pay page's options route needs no
// credential, every call quotes afresh, and the cap per (account, caller) did not bind fresh accounts, so 20 fresh
// accounts a request stored rows at the request rate, and nothing deleted them once expired. Now a payment holds a
// bounded number of valid quotes (a share per caller, and a cap on the whole), the sweep deletes expired ones but a
// payment's confirmed option, and a call's Permit2 allowance reads go out together.

jest.setTimeout(120_000);

const PER_PAYMENT = 100;
const PER_CALLER = 40;
const TTL_S = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fresh = (n: number, chain = 31337) => Array.from({ length: n }, () => `eip155:${chain}:${newWallet()}`);
/** An ERC-20 `allowance(owner, spender)` read: what the Permit2 approve check asks the node. */
const isAllowanceRead = (c: RpcCall) => c.method === 'eth_call' && String(c.params?.[0]?.data ?? '').startsWith('0xdd62ed3e');

describe('option rows per payment', () => {
  let svc: TestService;
  let web: ReturnType<typeof client>;
  let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
  beforeAll(async () => {
    proxy = await startRpcProxy(process.env.DEVNET_RPC_URL!);
    svc = await startTestService({
      DEVNET_RPC_URL: proxy.url,
      OPTIONS_MAX_LIVE_PER_PAYMENT: String(PER_PAYMENT),
      OPTIONS_MAX_LIVE_PER_PAYMENT_CALLER: String(PER_CALLER),
      OPTIONS_PURGE_AFTER_S: '0',
      QUOTE_TTL_SECONDS: String(TTL_S),
      // The per-address request limit of the hosted routes would refuse the floods first; each test client
      // below is an address of its own.
      RATE_LIMIT_IP_PER_S: '100000',
      TRUSTED_PROXY_HOPS: '1',
    });
    web = client(svc.directUrl);
  }, 90_000);
  afterAll(async () => {
    await svc?.close();
    await proxy?.close();
  });

  /** The pay page's options route as a browser at `address` calls it. */
  const page = (id: string, address: string, accounts: string[]) =>
    web('POST', `/pay/${id}/options`, { body: { accounts }, headers: { 'X-Forwarded-For': address } });
  const live = async (id: string) =>
    Number((await svc.db('payment_options').where({ payment_id: id }).where('expires_at', '>', svc.db.fn.now()).count({ n: '*' }))[0].n);
  const count = async (id: string) => Number((await svc.db('payment_options').where({ payment_id: id }).count({ n: '*' }))[0].n);
  const refusal = (r: Awaited<ReturnType<typeof page>>) => ({
    status: r.status,
    code: r.body.code,
    message: typeof r.body.message,
    retryAfter: Number(r.headers.get('retry-after')) >= 1 && Number(r.headers.get('retry-after')) <= TTL_S,
  });
  const REFUSED = { status: 429, code: 'rate_limited', message: 'string', retryAfter: true };

  it("the reviewer's flood (20 fresh accounts a request from one address) ends in 429 at the caller's share; the buyer still gets options", async () => {
    const { gw, pay } = await shopWithWallet(svc, 'Flooded');
    const id = await pay();
    const batches = Array.from({ length: 8 }, () => fresh(20));
    const answers = [];
    for (const accounts of batches) answers.push({ sentAt: Date.now(), r: await page(id, '203.0.113.7', accounts) });
    expect(answers.slice(0, 2).map((a) => a.r.status)).toEqual([200, 200]);
    // Refused while the caller's first quotes are valid (a slow machine may see them expire before the last call).
    const expiry = answers[0].r.body.options[0].expiresAt * 1000;
    const whileHeld = answers.slice(2).filter((a) => a.sentAt < expiry - 1000);
    expect(whileHeld.length).toBeGreaterThan(0);
    for (const { r } of whileHeld) expect(refusal(r)).toEqual(REFUSED);
    expect(whileHeld[0].r.body.message).toContain(`at most ${PER_CALLER}`);
    expect(await count(id)).toBeLessThanOrEqual(PER_PAYMENT);
    expect(await live(id)).toBeLessThanOrEqual(PER_CALLER);

    // The buyer's wallet on the pay page, from its own address, and through its own gateway credential.
    const buyer = await newBuyer(10_000_000n);
    const account = `eip155:31337:${buyer.address}`;
    const own = await page(id, '192.0.2.44', [account]);
    expect({ status: own.status, accounts: own.body.options.map((o: any) => o.account) }).toEqual({ status: 200, accounts: [account] });
    const viaGateway = await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [account] } });
    expect({ status: viaGateway.status, n: viaGateway.body.options.length }).toEqual({ status: 200, n: 1 });
    expect(await live(id)).toBeLessThanOrEqual(PER_CALLER + 2);
    const opt = viaGateway.body.options[0];
    const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
    const paid = await gw('POST', `/v1/gateway/payment/${id}/confirm`, {
      body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] },
    });
    expect({ status: paid.status, paymentStatus: paid.body.status }).toEqual({ status: 200, paymentStatus: 'processing' });
  });

  it('callers at once fill a payment to its cap and no further: a newcomer gets 429 with Retry-After, then room once quotes expire', async () => {
    const { pay } = await shopWithWallet(svc, 'Filled');
    const id = await pay();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => page(id, `198.51.100.${i + 1}`, fresh(20))));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(PER_PAYMENT / 20);
    for (const r of answers.filter((a) => a.status !== 200)) expect(refusal(r)).toEqual(REFUSED);
    expect(await count(id)).toBe(PER_PAYMENT);

    const newcomer = await page(id, '198.51.100.200', fresh(1));
    expect(refusal(newcomer)).toEqual(REFUSED);
    expect(newcomer.body.message).toContain(`at most ${PER_PAYMENT}`);
    expect(await count(id)).toBe(PER_PAYMENT); // a refused call writes nothing

    await sleep(Number(newcomer.headers.get('retry-after')) * 1000 + 500);
    const later = await page(id, '198.51.100.200', fresh(1));
    expect({ status: later.status, n: later.body.options?.length }).toEqual({ status: 200, n: 1 });
  });

  it('the sweep deletes expired options: rows of an open payment go once their quotes expire', async () => {
    const { pay } = await shopWithWallet(svc, 'Swept');
    const id = await pay();
    for (const address of ['203.0.113.21', '203.0.113.22', '203.0.113.23']) expect((await page(id, address, fresh(20))).status).toBe(200);
    const before = await count(id);
    expect(before).toBe(60);
    const after = await eventually(
      () => count(id),
      (n) => n === 0,
      (TTL_S + 10) * 1000,
      250,
    );
    expect({ before, after }).toEqual({ before: 60, after: 0 });
    expect((await svc.db('payments').where({ id }).first()).status).toBe('requires_action');
  });

  it("a payment's confirmed option is never purged; its other options are, once expired", async () => {
    const { gw, pay } = await shopWithWallet(svc, 'Confirmed');
    const id = await pay();
    const buyer = await newBuyer(10_000_000n);
    const account = `eip155:31337:${buyer.address}`;
    const mine = (await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [account] } })).body.options[0];
    expect((await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [account, ...fresh(4)] } })).status).toBe(200);
    expect((await page(id, '203.0.113.31', fresh(5))).status).toBe(200);
    expect(await count(id)).toBe(11);
    const sig = await buyer.signTypedData(JSON.parse(mine.actions[0].data.params[1]));
    const r = await gw('POST', `/v1/gateway/payment/${id}/confirm`, {
      body: { optionId: mine.id, results: [{ type: 'walletRpc', data: [sig] }] },
    });
    expect(r.body.status).toBe('processing');
    const left = await eventually(
      async () => (await svc.db('payment_options').where({ payment_id: id })).map((o) => o.id),
      (ids) => ids.length === 1,
      (TTL_S + 10) * 1000,
      250,
    );
    expect(left).toEqual([mine.id]);
    const paid = await eventually(
      async () => svc.db('payments').where({ id }).first(),
      (p) => p.status === 'succeeded',
      30_000,
    );
    expect({ status: paid.status, optionId: paid.option_id }).toEqual({ status: 'succeeded', optionId: mine.id });
    // Final and long expired, it stays through further sweeps.
    await sleep(2000);
    expect((await svc.db('payment_options').where({ payment_id: id })).map((o) => o.id)).toEqual([mine.id]);
  });

  it("a call's Permit2 allowance reads go to the node together, a few at a time, one per owner", async () => {
    const shop = await usdtShop(svc, 'USDT Reads', 'collector');
    const id = await shop.pay();
    const accounts = fresh(6);
    let reads = 0;
    proxy.watch((c) => (reads += isAllowanceRead(c) ? 1 : 0));
    const holds = Array.from({ length: 6 }, () => proxy.holdRequest(isAllowanceRead));
    try {
      const asking = shop.gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts } });
      await holds[0].arrived;
      // Every read held at the node: as many as may be in flight at once have been sent, and no more.
      const inFlight = await eventually(
        async () => reads,
        (n) => n >= 4,
        3000,
      );
      await sleep(300);
      expect({ inFlight, after: reads }).toEqual({ inFlight: 4, after: 4 });
      holds.forEach((h) => h.release());
      const r = await asking;
      expect(r.status).toBe(200);
      const usdt = r.body.options.filter((o: any) => o.amount.display.assetSymbol === 'USDT');
      expect(usdt.map((o: any) => [o.account, o.actions.map((a: any) => a.data.method)]).sort()).toEqual(
        accounts.map((a) => [a, ['eth_sendTransaction', 'eth_signTypedData_v4']]).sort(),
      );
      expect(reads).toBe(accounts.length);
    } finally {
      holds.forEach((h) => h.release());
      proxy.watch(null);
    }
  });
});
