import { createWalletClient, http, parseEther, parseGwei } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { devnetChain } from '../../src/chain/devnet';
import { TOKEN_ABI } from '../../src/chain/evm';
import { anvil, balanceOf, chainClient, fund, newBuyer, newWallet, rpcUrl, USDC_TOKEN, useOwnChain } from '../support/chain';
import { eventually } from '../support/eventually';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { useOwnDatabase } from '../support/freshDb';
import { client, newApp, newKey, startTestService, type TestService } from '../support/service';
import { signedBody } from '../support/x402';

// Who a revert is charged to (issue 44, finding 3). Ten reverts of buyers who moved their balance away between
// confirm and the relayer's transfer, through the pay page's public routes, refused every confirm of the account for
// 24 hours (and capped its payments in flight after one revert); so did the same through a shared App-Id, and a
// revert of congestion (an authorization mined after its deadline) was charged to the payer. Now the buyer address
// answers for what its balance does, a one-party credential (a partner key, the page per client address) for what it
// confirms, and an account or a shared credential only throttles buyers new to it once many buyers reverted.
//
// Each revert here is real: the confirm passes, the relayer's transfer waits in the pool (automine off), the buyer
// sends its balance elsewhere with a higher tip, and the block mines both: the transfer reverts for want of funds.

useOwnChain(); // automine off and block times moved: a chain of this file's own
useOwnDatabase('paygate_revert_blame');
jest.setTimeout(180_000);

type Buyer = PrivateKeyAccount;
interface Door {
  options: (id: string, account: string) => Promise<any>;
  confirm: (id: string, body: unknown) => Promise<any>;
}

describe('who a reverted submission is charged to', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({
      REVERT_BUDGET_PER_BUYER: '2',
      REVERT_BUDGET_PER_CREDENTIAL: '3',
      REVERT_BUDGET_PER_ACCOUNT: '3',
      TRUSTED_PROXY_HOPS: '1', // the page's callers by X-Forwarded-For: one client address per test caller
    });
  }, 90_000);
  afterEach(() => anvil().setAutomine(true));
  afterAll(() => svc?.close());

  const gatewayDoor = (headers: Record<string, string>): Door => {
    const c = client(svc.directUrl, headers);
    return {
      options: (id, account) => c('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [account] } }),
      confirm: (id, body) => c('POST', `/v1/gateway/payment/${id}/confirm`, { body }),
    };
  };
  /** The pay page's wallet routes, no credential, from client address `ip`. */
  const pageDoor = (ip: string): Door => {
    const c = client(svc.directUrl, { 'X-Forwarded-For': ip });
    return {
      options: (id, account) => c('POST', `/pay/${id}/options`, { body: { accounts: [account] } }),
      confirm: (id, body) => c('POST', `/pay/${id}/confirm`, { body }),
    };
  };

  async function shop(name: string) {
    const m = await merchantWithSettlement(svc, name);
    const pay = async () => {
      const r = await m.asMerchant('POST', '/v1/payments', {
        body: { referenceId: uniqueKey('blame'), amount: { unit: 'iso4217/USD', value: '100' } },
      });
      if (r.status !== 201) throw new Error(r.text);
      return r.body.paymentId as string;
    };
    return { ...m, pay };
  }
  /** USD 1.00 buyers, funded while blocks are mined. */
  const buyers = (n: number) => Promise.all(Array.from({ length: n }, () => newBuyer(1_000_000n)));

  /** Quotes, signs and confirms payment `id` for `buyer` through `door`: the confirm's answer. */
  async function confirmThrough(door: Door, id: string, buyer: Buyer) {
    const o = await door.options(id, `eip155:31337:${buyer.address}`);
    if (o.status !== 200) throw new Error(JSON.stringify(o.body));
    const opt = o.body.options[0];
    const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
    return door.confirm(id, { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] });
  }
  const outcome = (r: { status: number; body: any }) => (r.status === 200 ? `200 ${r.body.status}` : `${r.status} ${r.body.code}`);

  const transfersOf = (id: string) => svc.db('chain_transactions').where({ payment_id: id }).whereIn('purpose', ['collect', 'direct']);
  const statusOf = async (id: string) => (await svc.db('payments').where({ id }).first()).status;
  const broadcast = (id: string) =>
    eventually(
      () => transfersOf(id),
      (t) => Boolean(t[0]?.broadcast_at),
      15_000,
    );

  /** With automine off: the buyer's whole balance goes elsewhere, tipped to be mined ahead of the relayer. */
  async function moveAway(buyer: Buyer) {
    await anvil().setBalance({ address: buyer.address, value: parseEther('1') });
    const wallet = createWalletClient({ chain: devnetChain(rpcUrl()), transport: http(rpcUrl()), account: buyer });
    await wallet.writeContract({
      address: USDC_TOKEN,
      abi: TOKEN_ABI,
      functionName: 'transfer',
      args: [newWallet(), await balanceOf(buyer.address)],
      gas: 100_000n,
      maxFeePerGas: parseGwei('500'),
      maxPriorityFeePerGas: parseGwei('50'),
    } as never);
  }

  /** A confirm through `door` that passes, then reverts on chain because the buyer moved its balance away. */
  async function revertThrough(door: Door, pay: () => Promise<string>, buyer: Buyer) {
    await anvil().setAutomine(true);
    if ((await balanceOf(buyer.address)) < 1_000_000n) await fund(buyer.address, 1_000_000n); // moved away before
    await anvil().setAutomine(false);
    const id = await pay();
    expect(outcome(await confirmThrough(door, id, buyer))).toBe('200 processing');
    await broadcast(id);
    await moveAway(buyer);
    await anvil().mine({ blocks: 1 });
    await failedBy(id, 'insufficient_funds', 'payer');
  }

  /** Waits for payment `id` to fail with `code`, its transfer reverted with `cause`. */
  async function failedBy(id: string, code: string, cause: string) {
    const p = await eventually(
      () => svc.db('payments').where({ id }).first(),
      (x) => x.status === 'failed',
      20_000,
    );
    const [tx] = await transfersOf(id);
    expect([p.failure_code, tx.status, tx.revert_cause]).toEqual([code, 'reverted', cause]);
  }

  /** Mines until each payment succeeded. */
  async function succeed(ids: string[]) {
    const statuses = await eventually(
      async () => {
        await anvil().mine({ blocks: 1 });
        return svc.db('payments').whereIn('id', ids).pluck('status');
      },
      (s) => s.filter((x) => x === 'succeeded').length === ids.length,
      30_000,
      200,
    );
    expect(statuses).toEqual(ids.map(() => 'succeeded'));
  }

  it("(a) the pay page: distinct buyers' reverts leave the account open; the reverting page caller is refused at its budget", async () => {
    const s = await shop('Page Reverts');
    const [b1, b2, b3, next] = await buyers(4);
    const attacker = pageDoor('203.0.113.7');
    for (const b of [b1, b2, b3]) await revertThrough(attacker, s.pay, b); // the account's budget (3) of buyers, and the caller's
    await anvil().setAutomine(true);
    // The client address that confirmed them is one party: refused at its budget, whoever the buyer.
    const refused = await confirmThrough(attacker, await s.pay(), next);
    expect(outcome(refused)).toBe('429 too_many_reverts');
    expect(refused.body.message).toMatch(/credential/);
    // Another buyer on another address pays the same account.
    const id = await s.pay();
    expect(outcome(await confirmThrough(pageDoor('198.51.100.20'), id, next))).toBe('200 processing');
    await eventually(
      () => statusOf(id),
      (x) => x === 'succeeded',
      20_000,
    );
  });

  it('(b) an App-Id: its buyers answer for their reverts; then only buyers new to the account wait for places in flight', async () => {
    const s = await shop('App Reverts');
    const app = await newApp(s.accountId, 'Shared Wallet');
    const door = gatewayDoor({ 'App-Id': app.appId, 'Client-Id': app.clientId });
    const [known, b1, b2, b3, f1, f2, f3, f4] = await buyers(8);
    await fund(known.address, 1_000_000n); // two payments
    const paid = await s.pay();
    expect(outcome(await confirmThrough(door, paid, known))).toBe('200 processing');
    await eventually(
      () => statusOf(paid),
      (x) => x === 'succeeded',
      20_000,
    );
    for (const b of [b1, b2, b3]) await revertThrough(door, s.pay, b);
    // Three buyers reverted through the app and on the account (both budgets): new buyers share three places in flight.
    const ids = await Promise.all([f1, f2, f3, f4, known].map(() => s.pay()));
    const rs = [];
    for (const [i, b] of [f1, f2, f3, f4].entries()) rs.push(outcome(await confirmThrough(door, ids[i], b)));
    expect(rs).toEqual(['200 processing', '200 processing', '200 processing', '429 too_many_reverts']);
    // A buyer that paid the account before is not held back.
    expect(outcome(await confirmThrough(door, ids[4], known))).toBe('200 processing');
    await succeed([ids[0], ids[1], ids[2], ids[4]]);
    // Once those are final the new buyer gets its place.
    const again = await s.pay();
    expect(outcome(await confirmThrough(door, again, f4))).toBe('200 processing');
    await succeed([again]);
  });

  it("(c) the reverting buyer is refused at its budget; other buyers are not, nor capped in flight by one buyer's reverts", async () => {
    const s = await shop('Buyer Reverts');
    const door = gatewayDoor({ 'Api-Key': (await newKey(s.accountId, 'wallet')).apiKey });
    const [reverter, ...others] = await buyers(4);
    await revertThrough(door, s.pay, reverter);
    await revertThrough(door, s.pay, reverter);
    const refused = await confirmThrough(door, await s.pay(), reverter);
    expect(outcome(refused)).toBe('429 too_many_reverts');
    expect(refused.body.message).toMatch(/buyer address/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(86_000);
    // Two reverts of the account's payments, one buyer's: three other buyers go in flight at once (automine off).
    const ids = await Promise.all(others.map(() => s.pay()));
    const rs = await Promise.all(others.map((b, i) => confirmThrough(door, ids[i], b)));
    expect(rs.map(outcome)).toEqual(['200 processing', '200 processing', '200 processing']);
    await succeed(ids);
  });

  it("(d) an x402 payment link: an authorization mined after its deadline, though it left time when sent, is nobody's", async () => {
    const s = await shop('Congestion');
    const agent = client(svc.directUrl, { 'Api-Key': (await newKey(s.accountId, 'wallet')).apiKey, 'PAY-Version': '2026-02-19.preview' });
    const payer = await newBuyer(2_000_000n);
    const chainNow = async () => (await chainClient().getBlock()).timestamp;
    /** Pays payment `id` over x402 with an authorization valid until `validBefore` (chain time). */
    async function payByLink(id: string, validBefore: bigint) {
      const unpaid = await agent('GET', `/v1/gateway/payment/${id}/x402`);
      const [accepted] = JSON.parse(Buffer.from(unpaid.headers.get('payment-required')!, 'base64').toString()).accepts;
      const body = await signedBody(payer, accepted, { validBefore });
      const header = Buffer.from(JSON.stringify(body.paymentPayload)).toString('base64');
      return agent('GET', `/v1/gateway/payment/${id}/x402?maxPollMs=0`, { headers: { 'PAYMENT-SIGNATURE': header } });
    }
    // Two late transfers: the payer's whole budget (2) if congestion were the payer's.
    for (const _ of [1, 2]) {
      const id = await s.pay();
      await anvil().setAutomine(false);
      const validBefore = (await chainNow()) + 120n;
      expect(outcome(await payByLink(id, validBefore))).toBe('200 processing');
      await broadcast(id);
      await anvil().setNextBlockTimestamp({ timestamp: validBefore });
      await anvil().mine({ blocks: 1 });
      await failedBy(id, 'authorization_expired', 'congestion');
    }
    await anvil().setAutomine(true);
    const id = await s.pay();
    expect(outcome(await payByLink(id, (await chainNow()) + 600n))).toBe('200 processing');
    await eventually(
      () => statusOf(id),
      (x) => x === 'succeeded',
      20_000,
    );
    expect(await statusOf(id)).toBe('succeeded');
  });
});
