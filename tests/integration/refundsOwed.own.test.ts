import { anvil, balanceOf, newBuyer, tokenAdmin } from '../support/chain';
import { eventually, flow, setup, Shop, useChainSuite } from '../support/chainSuite';
import { AT_FLOOR, PREVIEW, refundHelpers } from '../support/refundsSuite';
import { admin, adminWith, client, startTestService, TestService } from '../support/service';

// What the account owes stays its payments' (docs/ledger.md "Refunds", funded from): a refund of one payment never
// spends what the settlement of another left for that payment's refunds still waiting their turn. And a refund still
// short once its funding payment is paid gets another of what it lacks.

useChainSuite();

describe('refunds: what is owed to waiting refunds, and their funding', () => {
  let svc: TestService;
  let shop: Shop;
  const { mined, paid, available, preview, refund, refunded } = refundHelpers(() => ({ svc, shop }));

  beforeAll(async () => {
    svc = await startTestService(AT_FLOOR);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('a settlement that left before a refund of its payment reserved leaves its part owed: a refund of another payment waits for funds', async () => {
    const s = await setup(svc);
    shop = s.shop;
    const g = flow(svc.url, s.shop, s.gw);
    const as = client(svc.url, { 'Api-Key': s.shop.apiKey, 'Merchant-Id': s.shop.merchantId, ...PREVIEW });
    const part = (paymentId: string) => as('POST', '/v1/refunds', { body: { paymentId, amount: { unit: 'iso4217/USD', value: '100' } } });
    const txs = (paymentId: string, purpose: string) =>
      svc.db('chain_transactions').where({ payment_id: paymentId, purpose }).whereNotNull('broadcast_at');
    const z = await paid(g, '200');
    await g.until(z.id, (x) => x.settlement !== null); // settled: a refund of z is paid from what is free
    // p's settlement, refused by the token, is held; its share, 3.00, stays at the collector.
    await mined(tokenAdmin('blacklist', s.shop.wallet as `0x${string}`));
    let p: Awaited<ReturnType<typeof paid>>;
    try {
      p = await paid(g, '300');
      expect(await admin('settlements', 'hold', '--payment', p.id)).toMatchObject({ held: true });
    } finally {
      await mined(tokenAdmin('unBlacklist', s.shop.wallet as `0x${string}`));
    }
    const destinationBefore = await balanceOf(s.shop.wallet);
    await anvil().setAutomine(false);
    let rz: { id: string; status: string };
    try {
      await part(p.id);
      await eventually(async () => expect(await txs(p.id, 'refund')).toHaveLength(1)); // 1.00 reserved, in the mempool
      // The second refund of p waits for the first's transaction (one at a time per payment), not reserved yet.
      expect((await part(p.id)).body.refund.status).toBe('pending');
      // The settlement, retried, leaves what the refunds leave (1.00): the other 1.00 at the collector is the waiting refund's.
      expect(await admin('settlements', 'retry', '--payment', p.id)).toMatchObject({ retried: true });
      await eventually(async () => expect(await txs(p.id, 'settle')).toHaveLength(1));
      rz = (await part(z.id)).body.refund;
      await eventually(async () => {
        const row = await svc.db('refunds').where({ id: rz.id }).first();
        if (!(row.updated_at > row.created_at || (await txs(z.id, 'refund')).length)) throw new Error('not looked at yet');
      });
      await anvil().mine({ blocks: 1 });
    } finally {
      await anvil().setAutomine(true);
    }
    await eventually(async () => {
      const all = (await as('GET', `/v1/refunds?paymentId=${p.id}`)).body.data as { status: string }[];
      if (all.length !== 2 || all.some((r) => r.status !== 'succeeded')) throw new Error(JSON.stringify(all));
    }, 30_000);
    await g.until(p.id, (x) => x.settlement !== null);
    expect(rz!.status).toBe('requires_funding');
    expect((await as('GET', `/v1/refunds/${rz!.id}`)).body.refund.status).toBe('requires_funding');
    expect(await txs(z.id, 'refund')).toHaveLength(0);
    expect(await balanceOf(p!.buyer.address)).toBe(99_000_000n);
    expect((await balanceOf(s.shop.wallet)) - destinationBefore).toBe(1_000_000n);
    expect(await available(s.shop)).toBe('0');
    const check = await adminWith({}, 'ledger', 'check');
    expect({ code: check.code, differences: check.out.differences }).toEqual({ code: 0, differences: [] });
  });

  it('a refund still short once its funding payment is paid (the balance it was sized against moved) gets another of what it lacks', async () => {
    const s = await setup(svc);
    shop = s.shop;
    const g = flow(svc.url, s.shop, s.gw);
    const fund = async (paymentId: string, value: string) => {
      const funder = await newBuyer(10_000_000n);
      const { opt, td } = await g.option(paymentId, funder);
      expect(opt.amount.value).toBe(value);
      return async () => expect((await g.confirm(paymentId, opt.id, await funder.signTypedData(td))).status).toBe(200);
    };
    const z = await paid(g, '200');
    const p = await paid(g, '300');
    for (const x of [z, p]) await g.until(x.id, (y) => y.settlement !== null);
    // 2.00 free at the collector: a refund's funding, left when the token refused the refund's buyer.
    await mined(tokenAdmin('blacklist', z.buyer.address));
    try {
      const r0 = (await refund(z.id)).body.refund;
      await (
        await fund(r0.fundingInstructions.paymentId, '2000000')
      )();
      expect((await refunded(r0.id, 'failed')).failureCode).toBe('token_refused');
    } finally {
      await mined(tokenAdmin('unBlacklist', z.buyer.address));
    }
    expect(await available(s.shop)).toBe('2000000');
    // The refund of p lacks 1.00: its funding payment is of 1.00, offered now; then a refund of z takes the 2.00.
    const r = (await refund(p.id)).body.refund;
    expect(r.status).toBe('requires_funding');
    const first = r.fundingInstructions.paymentId;
    const payFirst = await fund(first, '1000000');
    await refunded((await refund(z.id)).body.refund.id);
    await payFirst();
    // Paid, the first funding is earmarked for the refund, which still lacks 2.00: a second funding payment of it.
    const second = await eventually(async () => {
      const x = (await preview()('GET', `/v1/refunds/${r.id}`)).body.refund;
      if (x.status !== 'requires_funding' || x.fundingInstructions?.paymentId === first) throw new Error(JSON.stringify(x));
      return x.fundingInstructions.paymentId as string;
    });
    await (
      await fund(second, '2000000')
    )();
    await refunded(r.id);
    expect(await balanceOf(p.buyer.address)).toBe(100_000_000n);
    expect(await balanceOf(z.buyer.address)).toBe(100_000_000n);
    const kinds = await svc.db('ledger_journals').where({ refund_id: r.id }).orderBy('id').pluck('kind');
    expect(kinds).toEqual(['collected', 'collected', 'refund_reserved', 'refunded']);
    expect(await available(s.shop)).toBe('0');
    const check = await adminWith({}, 'ledger', 'check');
    expect({ code: check.code, differences: check.out.differences }).toEqual({ code: 0, differences: [] });
  });

  it('a refund sent again with its Idempotency-Key is replayed: one refund, sent once', async () => {
    const s = await setup(svc);
    shop = s.shop;
    const g = flow(svc.url, s.shop, s.gw);
    // Its share stays at the collector until the refund is made: the merchant's wallet refuses the settlement till then.
    await mined(tokenAdmin('blacklist', s.shop.wallet as `0x${string}`));
    let p!: Awaited<ReturnType<typeof paid>>;
    let first!: Awaited<ReturnType<ReturnType<typeof preview>>> & { body: any };
    const once = () =>
      preview()('POST', '/v1/refunds', {
        body: { paymentId: p.id, amount: { unit: 'iso4217/USD', value: '100' } },
        headers: { 'Idempotency-Key': `refund-${p.id}` },
      });
    try {
      p = await paid(g, '200');
      first = await once();
    } finally {
      await mined(tokenAdmin('unBlacklist', s.shop.wallet as `0x${string}`));
    }
    expect(first.status).toBe(200);
    expect(first.body.refund.status).toBe('pending');
    await refunded(first.body.refund.id);
    const again = await once();
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.refund.id).toBe(first.body.refund.id);
    expect((await preview()('GET', `/v1/refunds?paymentId=${p.id}`)).body.data).toHaveLength(1);
    expect(await svc.db('chain_transactions').where({ payment_id: p.id, purpose: 'refund' })).toHaveLength(1);
    expect(await balanceOf(p.buyer.address)).toBe(99_000_000n);
  });
});
