import { randomBytes } from 'node:crypto';
import { newBuyer } from '../support/chain';
import { shopWithWallet, uniqueKey } from '../support/fixtures';
import { startRpcProxy } from '../support/rpcProxy';
import { client, newAccount, startTestService, TestService } from '../support/service';

// Confirm's checks on the chain (issue 28, finding 8): the signature and the simulation ask the RPC node, which
// may take seconds. They run outside any database transaction, so a wallet confirming in a loop holds no pooled
// connection while the node answers; they are limited per credential and per payment; and a refusal is answered
// from memory for a while when the same option and signature come again. A proxy in front of the run's chain
// adds latency and counts the calls.

jest.setTimeout(120_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** 65 bytes that are no signature of the option's signer: each is checked on the chain (is the signer a contract?). */
const junkSignature = () => `0x${randomBytes(65).toString('hex')}`;

type Proxy = Awaited<ReturnType<typeof startRpcProxy>>;

async function walletSetup(svc: TestService, name: string) {
  const { shop, gw, pay } = await shopWithWallet(svc, name);
  const option = async (id: string, address: string) => {
    const r = await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [`eip155:31337:${address}`] } });
    if (r.status !== 200 || !r.body.options?.length) throw new Error(r.text);
    return r.body.options[0];
  };
  const confirm = (id: string, optionId: string, sig: string, headers: Record<string, string> = {}) =>
    gw('POST', `/v1/gateway/payment/${id}/confirm`, { body: { optionId, results: [{ type: 'walletRpc', data: [sig] }] }, headers });
  return { shop, gw, pay, option, confirm };
}

describe('confirms while the RPC node takes 3 s to answer', () => {
  let proxy: Proxy;
  let svc: TestService;
  beforeAll(async () => {
    proxy = await startRpcProxy(process.env.DEVNET_RPC_URL!);
    // A small pool that gives up soon: a confirm holding a connection while the node answers starves it at once.
    svc = await startTestService({
      DEVNET_RPC_URL: proxy.url,
      DB_POOL_MAX: '4',
      DB_ACQUIRE_TIMEOUT_MS: '2000',
      RATE_LIMIT_CONFIRM_CREDENTIAL_PER_S: '1000',
      RATE_LIMIT_CONFIRM_PAYMENT_PER_S: '1000',
    });
  }, 90_000);
  afterAll(async () => {
    await svc?.close();
    await proxy?.close();
  });

  it("12 confirms in a loop from one wallet key, each waiting for the node: another account's reads stay 200", async () => {
    const w = await walletSetup(svc, 'Slow chain');
    const id = await w.pay();
    const opt = await w.option(id, (await newBuyer()).address);
    const other = client(svc.url, { 'Api-Key': (await newAccount('Bystander')).apiKey });
    proxy.delay(3000);
    const started = Date.now();
    const until = started + 10_000;
    const confirms: string[] = [];
    const loop = async () => {
      while (Date.now() < until) {
        // Each under an Idempotency-Key of its own: the key's transaction is what held a connection during the checks.
        const r = await w.confirm(id, opt.id, junkSignature(), { 'Idempotency-Key': uniqueKey('loop') });
        confirms.push(`${r.status} ${r.body?.code}`);
      }
    };
    const reads: { status: number; ms: number }[] = [];
    const reader = async () => {
      await sleep(1500); // every loop is waiting for the node by now
      while (Date.now() < until) {
        const t = Date.now();
        const r = await other('GET', '/v1/merchants');
        reads.push({ status: r.status, ms: Date.now() - t });
        await sleep(200);
      }
    };
    await Promise.all([...Array.from({ length: 12 }, loop), reader()]);
    proxy.delay(0);
    const slowest = Math.max(...reads.map((r) => r.ms));
    console.log(`confirmChecks: ${JSON.stringify({ confirms: confirms.length, reads: reads.length, slowestReadMs: slowest })}`);
    expect(reads.length).toBeGreaterThan(5);
    expect(reads.filter((r) => r.status !== 200)).toEqual([]);
    // Every confirm was answered by its check (not a 503 for want of a connection).
    expect(new Set(confirms)).toEqual(new Set(['422 invalid_signature']));
    expect((await svc.db('payments').where({ id }).first()).status).toBe('requires_action');
  });

  it('a valid confirm under an Idempotency-Key, sent twice at once while the node is slow, moves the payment once', async () => {
    const w = await walletSetup(svc, 'Slow chain, paid');
    const buyer = await newBuyer(10_000_000n);
    const id = await w.pay();
    const opt = await w.option(id, buyer.address);
    const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
    const key = uniqueKey('twice');
    proxy.delay(1000);
    const [a, b] = await Promise.all([
      w.confirm(id, opt.id, sig, { 'Idempotency-Key': key }),
      w.confirm(id, opt.id, sig, { 'Idempotency-Key': key }),
    ]);
    proxy.delay(0);
    const answers = [a, b].map((r) => (r.status === 200 ? r.body.status : (r.body.reason ?? r.body.code))).sort();
    // One claims the key and moves the payment; the other finds the claim held (409) or replays its answer.
    expect(answers[1]).toBe('processing');
    expect(['processing', 'idempotency_in_progress']).toContain(answers[0]);
    expect(await svc.db('payment_events').where({ payment_id: id, type: 'payment.processing' })).toHaveLength(1);
    const again = await w.confirm(id, opt.id, sig, { 'Idempotency-Key': key });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('confirm checks: limits and remembered refusals', () => {
  let proxy: Proxy;
  let svc: TestService;
  // Windows of 2 s (as in limits.own.test.ts), so that a burst on a busy machine stays inside one: 4 checks per payment
  // and 6 per credential in a window.
  const WINDOW_MS = 2000;
  const startOfWindow = async () => {
    while (Date.now() % WINDOW_MS > 30) await sleep(5);
  };
  beforeAll(async () => {
    proxy = await startRpcProxy(process.env.DEVNET_RPC_URL!);
    svc = await startTestService({
      DEVNET_RPC_URL: proxy.url,
      RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
      RATE_LIMIT_CONFIRM_PAYMENT_PER_S: '2',
      RATE_LIMIT_CONFIRM_CREDENTIAL_PER_S: '3',
      CONFIRM_REFUSAL_CACHE_MS: '60000',
    });
  }, 90_000);
  afterAll(async () => {
    await svc?.close();
    await proxy?.close();
  });

  it('the same refused confirm again is answered without asking the node; another signature is checked', async () => {
    const w = await walletSetup(svc, 'Refusals');
    const buyer = await newBuyer(); // no funds: the simulation refuses
    const id = await w.pay();
    const opt = await w.option(id, buyer.address);
    const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
    await startOfWindow();
    const before = proxy.calls('eth_estimateGas');
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await w.confirm(id, opt.id, sig));
    expect(answers.map((r) => `${r.status} ${r.body.code}`)).toEqual(Array(5).fill('422 insufficient_funds'));
    expect(proxy.calls('eth_estimateGas') - before).toBe(1);
    // A different signature is not the refused one: it is checked (and refused for its own reason).
    const getCode = proxy.calls('eth_getCode');
    expect((await w.confirm(id, opt.id, junkSignature())).body.code).toBe('invalid_signature');
    expect(proxy.calls('eth_getCode') - getCode).toBe(1);
  });

  it('checks beyond the per-payment limit are 429 rate_limited with Retry-After, without asking the node', async () => {
    const w = await walletSetup(svc, 'Per payment');
    const id = await w.pay();
    const opt = await w.option(id, (await newBuyer()).address);
    await startOfWindow();
    const before = proxy.calls('eth_getCode');
    const rs = await Promise.all(Array.from({ length: 8 }, () => w.confirm(id, opt.id, junkSignature())));
    const limited = rs.filter((r) => r.status === 429);
    expect(rs.filter((r) => r.status === 422).length).toBeLessThanOrEqual(4);
    expect(limited.length).toBeGreaterThanOrEqual(4);
    expect(limited[0].body).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('payment') });
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(proxy.calls('eth_getCode') - before).toBeLessThanOrEqual(4);
  });

  it('checks beyond the per-credential limit are 429 across payments; another credential is not affected', async () => {
    const w = await walletSetup(svc, 'Per credential');
    const buyer = (await newBuyer()).address;
    const ids = [await w.pay(), await w.pay(), await w.pay()];
    const opts = await Promise.all(ids.map((id) => w.option(id, buyer)));
    const other = await walletSetup(svc, 'Another wallet');
    const otherId = await other.pay();
    const otherOpt = await other.option(otherId, buyer);
    await startOfWindow();
    // 3 per payment (within its 4), 9 for the credential (over its 6).
    const rs = await Promise.all(ids.flatMap((id, i) => [0, 1, 2].map(() => w.confirm(id, opts[i].id, junkSignature()))));
    const limited = rs.filter((r) => r.status === 429);
    expect(rs.filter((r) => r.status === 422).length).toBeLessThanOrEqual(6);
    expect(limited.length).toBeGreaterThanOrEqual(3);
    expect(limited[0].body).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('credential') });
    expect((await other.confirm(otherId, otherOpt.id, junkSignature())).body.code).toBe('invalid_signature');
  });
});
