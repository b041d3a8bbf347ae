import { getAddress, parseSignature, serializeSignature, type Hex } from 'viem';
import { balanceOf, DEVNET_USDC, fund, newBuyer, newWallet, receiptOf } from '../support/chain';
import { eventually, flow, N, setup, Shop, useChainSuite } from '../support/chainSuite';
import { merchantWithSettlement } from '../support/fixtures';
import { startRpcProxy } from '../support/rpcProxy';
import { admin, client, newKey, startTestService, TestService } from '../support/service';

useChainSuite();

describe('on the development chain', () => {
  let svc: TestService;
  let f: ReturnType<typeof flow>;
  let shop: Shop;

  beforeAll(async () => {
    svc = await startTestService();
    const s = await setup(svc);
    shop = s.shop;
    f = flow(svc.url, shop, s.gw);
  });
  afterAll(() => svc.close());

  it('an unfunded buyer is refused at confirm (422 insufficient_funds); funded, the same option pays', async () => {
    const buyer = await newBuyer();
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    const sig = await buyer.signTypedData(td);
    const refused = await f.confirm(id, opt.id, sig);
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 422, code: 'insufficient_funds' });
    expect((await svc.db('payments').where({ id }).first()).status).toBe('requires_action');
    expect(await svc.db('chain_transactions').where({ payment_id: id })).toHaveLength(0);

    await fund(buyer.address, 10_000_000n);
    // The refusal of this option and signature is remembered for CONFIRM_REFUSAL_CACHE_MS (2 s), then checked again.
    const paid = await eventually(async () => {
      const r = await f.confirm(id, opt.id, sig);
      if (r.body.status !== 'processing') throw new Error(`confirm answered ${r.status} ${r.body.code}`);
      return r;
    }, 5000);
    expect(paid.body.status).toBe('processing');
    const done = await f.until(id, (d) => d.status === 'succeeded');
    expect((await receiptOf(done.info.txId)).status).toBe('success');
    expect(await balanceOf(buyer.address)).toBe(0n);
  });

  it('a high-s signature with v 0/1 is normalised to the form the token accepts, and pays', async () => {
    const buyer = await newBuyer(10_000_000n);
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    const sig = parseSignature(await buyer.signTypedData(td));
    const highS = `0x${(N - BigInt(sig.s)).toString(16).padStart(64, '0')}` as Hex;
    const malleable =
      serializeSignature({ r: sig.r, s: highS, yParity: sig.yParity === 0 ? 1 : 0 }).slice(0, 130) + (sig.yParity === 0 ? '01' : '00');
    expect((await f.confirm(id, opt.id, malleable)).body.status).toBe('processing');
    const stored = (await svc.db('payments').where({ id }).first()).signature as Hex;
    expect(BigInt(parseSignature(stored).s) <= N / 2n).toBe(true);
    expect((await receiptOf((await f.until(id, (d) => d.status === 'succeeded')).info.txId)).status).toBe('success');
  });

  it('fee (base + percent) is kept; the destination current at settlement time receives amount − fee', async () => {
    const buyer = await newBuyer(100_000_000n);
    expect(await admin('accounts', 'set-fee', '--account', shop.accountId, '--base-minor', '10', '--percent', '1.5')).toEqual({
      accountId: shop.accountId,
      feeBaseMinor: '10',
      feePercent: '1.5',
    });
    try {
      const id = await f.pay('1000'); // USD 10.00 -> fee 0.10 + 1.5 % = 0.25 USDC
      const { opt, td } = await f.option(id, buyer);
      const moved = newWallet();
      const [s] = (await shop.api('GET', `/v1/merchants/${shop.merchantId}/settlements`)).body.crypto;
      expect(
        (
          await shop.api('PUT', `/v1/merchants/${shop.merchantId}/settlements/crypto/${s.id}`, {
            body: { destination: `eip155:31337:${moved}` },
          })
        ).status,
      ).toBe(200);
      expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).status).toBe(200);
      const d = await f.until(id, (x) => x.settlement?.successful !== undefined, 40_000);
      expect(d.settlement.successful.amount).toEqual({ unit: `caip19/${DEVNET_USDC}`, value: '9750000' });
      expect(await balanceOf(moved)).toBe(9_750_000n);
      const item = (await shop.api('GET', `/v1/payments?merchantId=${shop.merchantId}&status=succeeded`)).body.data.find(
        (p: any) => p.paymentId === id,
      );
      expect(item).toMatchObject({
        fees: { total: { value: '250000' } },
        settlement: { settled: true, amount: { value: '9750000' }, txHash: d.settlement.successful.txId },
      });
      expect(await svc.db('payments').where({ id }).first()).toMatchObject({
        fee_amount: '250000',
        settlement_amount: '9750000',
        settlement_destination: `eip155:31337:${moved}`,
      });
    } finally {
      await admin('accounts', 'set-fee', '--account', shop.accountId, '--base-minor', '0', '--percent', '0');
    }
  });

  it('direct mode: TransferWithAuthorization straight to the merchant, no settlement transfer', async () => {
    const direct = await merchantWithSettlement(svc, 'Direct Shop');
    expect(await admin('accounts', 'set-mode', '--account', direct.accountId, '--mode', 'direct')).toEqual({
      accountId: direct.accountId,
      settlementMode: 'direct',
    });
    const wallet = await newKey(direct.accountId, 'wallet');
    const g = flow(svc.url, direct, client(svc.url, { 'Api-Key': wallet.apiKey }));
    const buyer = await newBuyer(10_000_000n);
    const id = await g.pay('500');
    const { opt, td } = await g.option(id, buyer);
    expect(td.primaryType).toBe('TransferWithAuthorization');
    expect(td.message.to).toBe(getAddress(direct.wallet));
    expect((await g.confirm(id, opt.id, await buyer.signTypedData(td))).status).toBe(200);
    const d = await g.until(id, (x) => x.status === 'succeeded');
    expect(await balanceOf(direct.wallet)).toBe(5_000_000n);
    await new Promise((r) => setTimeout(r, 500));
    expect((await g.details(id)).settlement).toBeNull();
    expect((await svc.db('chain_transactions').where({ payment_id: id })).map((t) => t.purpose)).toEqual(['direct']);
    expect((await receiptOf(d.info.txId)).status).toBe('success');
  });

  it('relayer metrics: gas per key, pending transactions, settlement backlog', async () => {
    const text = await (await fetch(`${svc.url}/metrics`)).text();
    expect(text).toMatch(/paygate_relayer_balance_wei\{chain="eip155:31337",relayer="0x[0-9a-fA-F]{40}"\} [1-9]/);
    expect(text).toMatch(/paygate_relayer_balance_below_floor\{chain="eip155:31337",relayer="0x[0-9a-fA-F]{40}"\} 0/);
    expect(text).toMatch(/paygate_settlement_backlog \d+/);
  });
});
describe('an RPC node in trouble: payments wait, then succeed; none fails', () => {
  let svc: TestService;
  let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
  let f: ReturnType<typeof flow>;
  beforeAll(async () => {
    proxy = await startRpcProxy(process.env.DEVNET_RPC_URL!);
    svc = await startTestService({ DEVNET_RPC_URL: proxy.url });
    const s = await setup(svc);
    f = flow(svc.url, s.shop, s.gw);
  });
  afterAll(async () => {
    await svc.close();
    await proxy.close();
  });

  it('broadcasts refused by the node: the signed transaction waits and is sent when the node is back', async () => {
    const buyer = await newBuyer(10_000_000n);
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    proxy.refuse('eth_sendRawTransaction');
    expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).body.status).toBe('processing');
    const stored = await eventually(async () => {
      const t = await svc.db('chain_transactions').where({ payment_id: id }).first();
      if (!t) throw new Error('not signed yet');
      return t;
    });
    await new Promise((r) => setTimeout(r, 1500)); // several monitor passes, each failing to broadcast
    expect((await f.details(id)).status).toBe('processing');
    expect(await receiptOf(stored.tx_hash).catch(() => null)).toBeNull();
    proxy.up();
    const done = await f.until(id, (x) => x.settlement !== null);
    expect(done.info.txId).toBe(stored.tx_hash); // the bytes signed before the outage, not a second signature
  });

  it('the node down entirely at confirm: 503 service_unavailable, the payment stays payable', async () => {
    const buyer = await newBuyer(10_000_000n);
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    const sig = await buyer.signTypedData(td);
    proxy.down();
    const r = await f.confirm(id, opt.id, sig);
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 503, code: 'service_unavailable' });
    expect((await svc.db('payments').where({ id }).first()).status).toBe('requires_action');
    proxy.up();
    expect((await f.confirm(id, opt.id, sig)).body.status).toBe('processing');
    expect((await f.until(id, (x) => x.status === 'succeeded')).status).toBe('succeeded');
  });
});
