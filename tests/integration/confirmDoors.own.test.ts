import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { devnetAssetId, devnetAssets } from '../../src/chain/devnet';
import { balanceOf, DEVNET2_CHAIN_ID, newBuyer, USDC_TOKEN } from '../support/chain';
import { eventually, flow, setup, useChainSuite } from '../support/chainSuite';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { PREVIEW } from '../support/refundsSuite';
import { startRpcProxy } from '../support/rpcProxy';
import { admin, client, newKey, startTestService, type TestService } from '../support/service';
import { NETWORK, payingFetch, signedBody, x402PayTo } from '../support/x402';

// One rulebook for every door into a confirm (src/usecases/gateway/confirmRules.ts; issue 44): the rules the gateway's
// confirm keeps hold at the x402 payment link and at x402 verify and settle too. Each test names the rule and the
// door; the gateway's own refusals are in gateway.test.ts, gatewayCollectData.test.ts and confirmChecks.own.test.ts.

useChainSuite();
jest.setTimeout(180_000);

const USDC2 = devnetAssetId('USDC', DEVNET2_CHAIN_ID);
const decoded = (header: string | null) => JSON.parse(Buffer.from(header!, 'base64').toString());

describe('every door runs the confirm rules', () => {
  let svc: TestService;
  let rpc: Awaited<ReturnType<typeof startRpcProxy>>;
  let collectors: string[];

  beforeAll(async () => {
    rpc = await startRpcProxy(process.env.DEVNET_RPC_URL!);
    svc = await startTestService({ DEVNET_RPC_URL: rpc.url });
    collectors = (await client(svc.url)('GET', '/x402/supported')).body.signers['eip155:*'].map((a: string) => getAddress(a));
  });
  afterAll(async () => {
    await svc.close();
    await rpc.close();
  });

  it("funding rule, x402 link: a refund's funding payment is offered and paid only in the refund's token, to a collector", async () => {
    const { shop, gw } = await setup(svc);
    const added = await shop.api('POST', `/v1/merchants/${shop.merchantId}/settlements/crypto`, {
      body: { settlements: [{ asset: USDC2, destination: `eip155:${DEVNET2_CHAIN_ID}:${shop.wallet}` }] },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    expect(added.status).toBe(201);
    const g = flow(svc.url, shop, gw);
    const buyer = await newBuyer(100_000_000n);
    const p = await g.pay('100');
    const o = await g.option(p, buyer);
    expect((await g.confirm(p, o.opt.id, await buyer.signTypedData(o.td))).status).toBe(200);
    // Settled on to the merchant: the collector holds nothing of the account, so the refund needs funding.
    await g.until(p, (x) => x.settlement !== null, 60_000);
    const preview = client(svc.url, { 'Api-Key': shop.apiKey, 'Merchant-Id': shop.merchantId, ...PREVIEW });
    const r = (await preview('POST', '/v1/refunds', { body: { paymentId: p } })).body.refund;
    expect(r.status).toBe('requires_funding');
    const funding = r.fundingInstructions.paymentId as string;

    const agentHeaders = { 'Api-Key': (await newKey(shop.accountId, 'wallet')).apiKey, ...PREVIEW };
    const agent = client(svc.url, agentHeaders);
    const unpaid = await agent('GET', `/v1/gateway/payment/${funding}/x402`);
    expect({ status: unpaid.status, code: unpaid.body.code }).toEqual({ status: 402, code: 'payment_required' });
    const accepts = decoded(unpaid.headers.get('payment-required')).accepts;
    // The merchant also settles USDC of the second chain: before, it was offered too, and paying it there was spent as
    // the refund's token of the first chain (out of other accounts' tokens at the collector).
    expect(accepts).toEqual([expect.objectContaining({ network: NETWORK, asset: USDC_TOKEN, amount: '1000000' })]);
    // Paid to the account's deposit address, which passes the tokens on to the collector in the same transaction.
    expect(getAddress(accepts[0].payTo)).toBe(getAddress((await x402PayTo(client(svc.url, { 'Api-Key': shop.apiKey })))!));
    expect(collectors).not.toContain(getAddress(accepts[0].payTo));

    // A payload for the second chain's USDC, as an agent reading an older answer would send it: refused before the chain.
    const other = await signedBody(buyer, { ...accepts[0], network: `eip155:${DEVNET2_CHAIN_ID}`, amount: '1000000' });
    const header = Buffer.from(JSON.stringify(other.paymentPayload)).toString('base64');
    const refused = await client(svc.url, { ...agentHeaders, 'PAYMENT-SIGNATURE': header })('GET', `/v1/gateway/payment/${funding}/x402`);
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 402, code: 'payment_required' });
    expect(decoded(refused.headers.get('payment-required')).error).toMatch(/accepts none/);

    const funder = await newBuyer(1_000_000n);
    const paid = await payingFetch(funder)(`${svc.url}/v1/gateway/payment/${funding}/x402`, { headers: agentHeaders });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ status: 'succeeded' });
    const before = await balanceOf(buyer.address);
    await eventually(async () => expect((await preview('GET', `/v1/refunds/${r.id}`)).body.refund.status).toBe('succeeded'), 60_000);
    expect((await balanceOf(buyer.address)) - before).toBe(1_000_000n);
    const balances = await client(svc.url, { 'Api-Key': shop.apiKey, ...PREVIEW })('GET', '/v1/balance');
    expect(balances.status).toBe(200);
  });

  it('buyer-data rule, x402 link and settle: a payment at the threshold is refused there, as the gateway refuses it without data', async () => {
    const m = await merchantWithSettlement(svc, 'Data Shop');
    expect(await admin('accounts', 'set-threshold', '--account', m.accountId, '--minor', '100')).toMatchObject({ accountId: m.accountId });
    const created = await client(svc.url, { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId })('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('data'), amount: { unit: 'iso4217/USD', value: '100' } },
    });
    const id = created.body.paymentId;
    const agent = { 'Api-Key': (await newKey(m.accountId, 'wallet')).apiKey, ...PREVIEW };
    const buyer = await newBuyer(2_000_000n);
    const res = await payingFetch(buyer)(`${svc.url}/v1/gateway/payment/${id}/x402`, { headers: agent });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('collect_data_required');
    expect(await balanceOf(buyer.address)).toBe(2_000_000n);
    const status = await client(svc.url, agent)('GET', `/v1/gateway/payment/${id}`);
    expect(status.body.status).toBe('requires_action');

    // The facilitator creates the payment itself: of 1.00, at this account's threshold, it needs data x402 cannot carry.
    const x402 = client(svc.url, { 'Api-Key': m.apiKey });
    const body = await signedBody(buyer, {
      payTo: (await x402PayTo(x402))!,
      amount: '1000000',
      extra: { ...domainOf(), merchantId: m.merchantId },
    });
    const verified = await x402('POST', '/x402/verify', { body });
    expect(verified.body).toMatchObject({ isValid: false, invalidReason: 'invalid_payment_requirements' });
    expect(verified.body.invalidMessage).toMatch(/^collect_data_required/);
    const settled = await x402('POST', '/x402/settle', { body });
    expect(settled.body).toMatchObject({ success: false, errorReason: 'invalid_payment_requirements' });
    expect(await svc.db('x402_settlements').where({ nonce: body.paymentPayload.payload.authorization.nonce })).toEqual([]);
    expect(await balanceOf(buyer.address)).toBe(2_000_000n);
    // Below the threshold the same door pays.
    const small = await signedBody(buyer, {
      payTo: (await x402PayTo(x402))!,
      amount: '990000',
      extra: { ...domainOf(), merchantId: m.merchantId },
    });
    expect((await x402('POST', '/x402/settle', { body: small })).body).toMatchObject({ success: true });
  });

  it('chain rule, x402 verify: a refused payload is remembered, not simulated again at every call', async () => {
    const m = await merchantWithSettlement(svc, 'Cache Shop');
    const x402 = client(svc.url, { 'Api-Key': m.apiKey });
    const unfunded = privateKeyToAccount(generatePrivateKey());
    const body = await signedBody(unfunded, {
      payTo: (await x402PayTo(x402))!,
      amount: '10000',
      extra: { ...domainOf(), merchantId: m.merchantId },
    });
    const first = await x402('POST', '/x402/verify', { body });
    expect(first.body).toMatchObject({ isValid: false, invalidReason: 'invalid_exact_evm_insufficient_balance' });
    const asked = rpc.calls('eth_call') + rpc.calls('eth_estimateGas');
    for (let i = 0; i < 5; i++) expect((await x402('POST', '/x402/verify', { body })).body).toEqual(first.body);
    expect(rpc.calls('eth_call') + rpc.calls('eth_estimateGas')).toBe(asked);
  });

  it('chain rule, x402 settle under an Idempotency-Key: the chain is asked with no database transaction open', async () => {
    const m = await merchantWithSettlement(svc, 'Slow Node Shop');
    const x402 = client(svc.url, { 'Api-Key': m.apiKey });
    const buyer = await newBuyer(10_000n);
    const body = await signedBody(buyer, {
      payTo: (await x402PayTo(x402))!,
      amount: '10000',
      extra: { ...domainOf(), merchantId: m.merchantId },
    });
    const openTransactions = async () =>
      Number(
        (
          await svc.db.raw(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
          )
        ).rows[0].n,
      );
    rpc.delay(3000);
    let held = 0;
    const settling = x402('POST', '/x402/settle?maxPollMs=0', { body, headers: { 'Idempotency-Key': uniqueKey() } });
    try {
      for (let i = 0; i < 10; i++) {
        await new Promise((r) => setTimeout(r, 200));
        held = Math.max(held, await openTransactions());
      }
    } finally {
      rpc.delay(0);
    }
    expect((await settling).status).toBe(200);
    expect(held).toBe(0);
  });
});

/** The development USDC's EIP-712 domain, as x402 requirements carry it in `extra`. */
function domainOf() {
  const usdc = devnetAssets().find((a) => a.symbol === 'USDC')!;
  return { name: usdc.eip712Name!, version: usdc.eip712Version! };
}
