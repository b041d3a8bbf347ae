import { balanceOf, newBuyer } from '../support/chain';
import { eventually } from '../support/chainSuite';
import { merchantWithSettlement } from '../support/fixtures';
import { startRpcProxy } from '../support/rpcProxy';
import { adminWith, client, setAccountFee, setAccountMode, startTestService, type TestService } from '../support/service';
import { startReceiver, type Receiver } from '../support/webhookReceiver';
import { ledgerRowsOf, settledRows, signedBody, x402PayTo } from '../support/x402';

// The x402 v2 facilitator at <base>/x402 (docs/x402.md), paid through by the official packages on the development
// chain: tokens move on chain to payTo, each settlement is a payment with its events, one authorization moves tokens
// once however often or concurrently it is settled, and every verify refusal carries x402's reason name.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
// Every request here is the preview's (x402 and webhooks): straight to the service, as the contract gate's Prism
// chain checks the stable document too (tests/support/webhooksSuite.ts does the same).
let svc: TestService;
let rx: Receiver;
/** The chain's RPC node as the service sees it, to take down (not behind the contract gate's external service). */
let rpc: Awaited<ReturnType<typeof startRpcProxy>>;
let collector: string;

async function partner(mode: 'collector' | 'direct') {
  const m = await merchantWithSettlement(svc, `x402 ${mode}`);
  if (mode === 'direct') await setAccountMode(m.accountId, mode);
  return {
    ...m,
    x402: client(svc.directUrl, { 'Api-Key': m.apiKey }),
    preview: client(svc.directUrl, { 'Api-Key': m.apiKey, ...PREVIEW }),
  };
}

beforeAll(async () => {
  rpc = await startRpcProxy(process.env.DEVNET_RPC_URL!);
  svc = await startTestService({ DEVNET_RPC_URL: rpc.url });
  rx = await startReceiver();
  const supported = await client(svc.directUrl)('GET', '/x402/supported');
  collector = supported.body.signers['eip155:*'][0];
}, 60_000);
afterAll(async () => {
  await rx.close();
  await svc.close();
  await rpc?.close();
});
jest.setTimeout(90_000);

it('an RPC outage neither loses nor doubles a settlement', async () => {
  const p = await partner('direct');
  const buyer = await newBuyer(10_000n);
  const body = await signedBody(buyer, { payTo: p.wallet, amount: '10000' });
  const nonce = body.paymentPayload.payload.authorization.nonce;
  rpc.down();
  const down = await p.x402('POST', '/x402/settle', { body });
  expect({ status: down.status, code: down.body.code }).toEqual({ status: 503, code: 'service_unavailable' });
  expect(await svc.db('x402_settlements').where({ nonce })).toEqual([]);
  rpc.up();
  rpc.refuse('eth_sendRawTransaction');
  const pending = await p.x402('POST', '/x402/settle?maxPollMs=1000', { body });
  expect(pending.body).toMatchObject({ success: false, errorReason: 'settlement_pending' });
  expect((await p.x402('POST', '/x402/settle?maxPollMs=0', { body })).body.paymentId).toBe(pending.body.paymentId);
  rpc.up();
  const done = await p.x402('GET', `/x402/settlements/${pending.body.paymentId}?maxPollMs=25000`);
  expect(done.body).toMatchObject({ success: true, paymentId: pending.body.paymentId });
  expect(await balanceOf(p.wallet)).toBe(10_000n);
  expect(await balanceOf(buyer.address)).toBe(0n);
  expect(await svc.db('chain_transactions').where({ payment_id: pending.body.paymentId })).toHaveLength(1);
});

// Own service: `admin ledger check` reads every holder of the database; here the collector is this service's alone.
it('one book: a collector settlement is collected with the fee and settled, a direct one moves no balance; check clean', async () => {
  const c = await partner('collector');
  await setAccountFee(c.accountId, 0n, 1000); // 10 %
  const d = await partner('direct');
  const buyer = await newBuyer(30_000n);
  const extra = { name: 'USD Coin', version: '2', merchantId: c.merchantId };
  const collected = await c.x402('POST', '/x402/settle', {
    body: await signedBody(buyer, { payTo: (await x402PayTo(c.x402))!, amount: '20000', extra }),
  });
  expect(collected.body).toMatchObject({ success: true, amount: '20000' });
  const direct = await d.x402('POST', '/x402/settle', { body: await signedBody(buyer, { payTo: d.wallet, amount: '10000' }) });
  expect(direct.body).toMatchObject({ success: true, amount: '10000' });
  await eventually(async () => expect([await balanceOf(c.wallet), await balanceOf(d.wallet)]).toEqual([18_000n, 10_000n]));
  const rows = await eventually(async () => {
    const mine = settledRows(await ledgerRowsOf(c.preview, collected.body.paymentId));
    expect(mine.map((r) => r.type)).toEqual(['collected', 'settle_reserved', 'settle_reserved', 'settled']);
    return mine;
  });
  expect(rows[0]).toMatchObject({ bucket: 'available', amount: '18000', fee: '2000' });
  expect(rows[3]).toMatchObject({ bucket: 'reserved', amount: '-18000' });
  expect(await ledgerRowsOf(d.preview, direct.body.paymentId)).toEqual([]);
  for (const p of [c, d]) {
    const bal = (await p.preview('GET', '/v1/balance')).body.balances as Record<string, string>[];
    expect(bal.filter((b) => [b.available, b.pending, b.reserved].some((v) => v !== '0'))).toEqual([]);
  }
  // A direct payment is in the book by its gas alone: the tokens never pass through this service.
  const kinds = () => svc.db('ledger_journals').where({ payment_id: direct.body.paymentId }).pluck('kind');
  await eventually(async () => expect(await kinds()).toEqual(['gas']));
  const check = await adminWith({}, 'ledger', 'check');
  expect(check.out?.differences.filter((x: { holder: string }) => x.holder === collector)).toEqual([]);
});
