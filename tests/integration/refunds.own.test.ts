import { anvil, balanceOf, DEVNET_USDC, newBuyer, receiptOf, tokenAdmin } from '../support/chain';
import { eventually, flow, setup, Shop, useChainSuite } from '../support/chainSuite';
import { AT_FLOOR, PREVIEW, refundHelpers } from '../support/refundsSuite';
import { admin, adminWith, client, startTestService, TestService } from '../support/service';

// Refunds send the buyer's tokens back (docs/ledger.md "Refunds"), on the development chain: partial refunds in the
// preview, the stable full refund, concurrent partial refunds, and refunds the account's balance does not cover.
// The merchant's destination is blacklisted on the token for most of the file, so settlements cannot leave the
// collector and the payments' shares stay available to refund from.

useChainSuite();

type Flow = ReturnType<typeof flow>;

describe('refunds', () => {
  let svc: TestService;
  let f: Flow;
  let shop: Shop;
  const { mined, preview, refund, refunded, paid, available } = refundHelpers(() => ({ svc, shop }));

  beforeAll(async () => {
    svc = await startTestService(AT_FLOOR);
    const s = await setup(svc);
    shop = s.shop;
    f = flow(svc.url, shop, s.gw);
    await mined(tokenAdmin('blacklist', shop.wallet as `0x${string}`));
  });
  afterAll(async () => {
    await mined(tokenAdmin('unBlacklist', shop.wallet as `0x${string}`));
    await svc.close();
  });

  it('two partial refunds: the buyer’s balance rises by each, the refunds show their transactions, more than is left is 409', async () => {
    const { id, buyer } = await paid(f, '1000');
    expect(await balanceOf(buyer.address)).toBe(90_000_000n);
    const a = await refund(id, '250');
    expect(a.status).toBe(200);
    expect(a.body.refundedAt).toBeUndefined();
    expect(a.body.refund).toMatchObject({ paymentId: id, amount: { unit: 'iso4217/USD', value: '250' }, status: 'pending' });
    expect(a.body.refund.tokenAmount).toEqual({ unit: `caip19/${DEVNET_USDC}`, value: '2500000' });
    const done = await refunded(a.body.refund.id);
    const receipt = await receiptOf(done.txId);
    expect(receipt.status).toBe('success');
    expect(await balanceOf(buyer.address)).toBe(92_500_000n);

    const b = await refund(id, '300');
    await refunded(b.body.refund.id);
    expect(await balanceOf(buyer.address)).toBe(95_500_000n);
    const over = await refund(id, '451');
    expect({ status: over.status, code: over.body.code }).toEqual({ status: 409, code: 'refund_exceeds_payment' });
    // The payment shows what has been refunded (preview); the stable version keeps its shape.
    const details = (await preview()('GET', `/v1/payments/${id}`)).body;
    expect({ amount: details.refundedAmount, tokens: details.refundedTokenAmount.value, refundedAt: details.refundedAt }).toEqual({
      amount: { unit: 'iso4217/USD', value: '550' },
      tokens: '5500000',
      refundedAt: null,
    });
    expect(details.refundedTokenAmount.unit).toBe(`caip19/${DEVNET_USDC}`);
    const stable = (await shop.asMerchant('GET', `/v1/payments/${id}`)).body;
    expect([stable.refundedAmount, stable.refundedTokenAmount, stable.status]).toEqual([undefined, undefined, 'succeeded']);

    const list = await preview()('GET', `/v1/refunds?paymentId=${id}&limit=1`);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([a.body.refund.id]);
    const next = await preview()('GET', `/v1/refunds?paymentId=${id}&limit=1&cursor=${encodeURIComponent(list.body.nextCursor)}`);
    expect(next.body).toEqual({ data: [expect.objectContaining({ id: b.body.refund.id, status: 'succeeded' })], nextCursor: null });
    // refund.* events, each with the refund as of the event.
    const events = (await preview()('GET', `/v1/events?paymentId=${id}&limit=100`)).body.events as {
      type: string;
      data: { refund?: { id: string; status: string; txId: string | null } };
    }[];
    const ofRefunds = events.filter((e) => e.type.startsWith('refund.')).map((e) => [e.type, e.data.refund!.id, e.data.refund!.status]);
    expect(ofRefunds.sort()).toEqual(
      [
        ['refund.created', a.body.refund.id, 'pending'],
        ['refund.created', b.body.refund.id, 'pending'],
        ['refund.succeeded', a.body.refund.id, 'succeeded'],
        ['refund.succeeded', b.body.refund.id, 'succeeded'],
      ].sort(),
    );
    // The ledger: reserved and sent, nothing left reserved; what the collector holds is what the chain says.
    expect(await available(shop)).toBe('4500000');
    const check = await adminWith({}, 'ledger', 'check');
    expect({ code: check.code, differences: check.out.differences }).toEqual({ code: 0, differences: [] });
  });

  it('the stable full refund answers its shape plus the refund (pending: covered) and sends the whole amount back; a second one is 409', async () => {
    const { id, buyer } = await paid(f, '400');
    const r = await shop.asMerchant('POST', '/v1/refunds', { body: { paymentId: id } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['paymentId', 'refund', 'refundedAt']);
    expect(r.body.refund).toMatchObject({ paymentId: id, amount: { unit: 'iso4217/USD', value: '400' }, status: 'pending' });
    expect([r.body.refund.fundingInstructions, 'livemode' in r.body.refund]).toEqual([null, false]);
    await eventually(async () => expect(await balanceOf(buyer.address)).toBe(100_000_000n), 30_000);
    const again = await shop.asMerchant('POST', '/v1/refunds', { body: { paymentId: id } });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 'already_refunded' });
    expect((await shop.asMerchant('GET', `/v1/payments/${id}`)).body.refundedAt).toBe(r.body.refundedAt);
  });

  it('a full refund the token refuses undoes refundedAt; refunded again, the payment is refunded (and 409 after)', async () => {
    const { id, buyer } = await paid(f, '300');
    await mined(tokenAdmin('blacklist', buyer.address));
    let first;
    try {
      first = await shop.asMerchant('POST', '/v1/refunds', { body: { paymentId: id } });
      expect(first.status).toBe(200);
      expect(first.body.refundedAt).toEqual(expect.any(String));
      const ref = await svc.db('refunds').where({ payment_id: id }).first();
      expect((await refunded(ref.id, 'failed')).failureCode).toBe('token_refused');
    } finally {
      await mined(tokenAdmin('unBlacklist', buyer.address));
    }
    const details = (await preview()('GET', `/v1/payments/${id}`)).body;
    expect({ refundedAt: details.refundedAt, amount: details.refundedAmount.value }).toEqual({ refundedAt: null, amount: '0' });
    const types = async () =>
      (await preview()('GET', `/v1/events?paymentId=${id}&limit=100`)).body.events
        .map((e: { type: string }) => e.type)
        .filter((t: string) => t.startsWith('refund') || t === 'payment.refunded')
        .sort(); // (those of one transaction have no order)
    expect(await types()).toEqual(['payment.refunded', 'refund.created', 'refund.failed']);
    const again = await shop.asMerchant('POST', '/v1/refunds', { body: { paymentId: id } });
    expect({ status: again.status, refundedAt: typeof again.body.refundedAt }).toEqual({ status: 200, refundedAt: 'string' });
    await eventually(async () => expect(await balanceOf(buyer.address)).toBe(100_000_000n), 30_000);
    const twice = ['payment.refunded', 'payment.refunded', 'refund.created', 'refund.created', 'refund.failed', 'refund.succeeded'];
    await eventually(async () => expect(await types()).toEqual(twice));
    const third = await shop.asMerchant('POST', '/v1/refunds', { body: { paymentId: id } });
    expect({ status: third.status, code: third.body.code }).toEqual({ status: 409, code: 'already_refunded' });
  });

  it('20 concurrent partial refunds whose sum exceeds the payment: exactly those that fit are accepted and sent', async () => {
    const { id, buyer } = await paid(f, '1000');
    // Each above the minimum of a partial refund, and fewer than the refunds a payment takes (docs/limits.md).
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(id, '160')));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(6); // 6 × 1.60 = 9.60 of 10.00
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.code)).toEqual(Array(14).fill('refund_exceeds_payment'));
    for (const a of ok) await refunded(a.body.refund.id);
    expect(await balanceOf(buyer.address)).toBe(90_000_000n + 9_600_000n);
    const rows = await svc.db('refunds').where({ payment_id: id });
    expect(rows.reduce((s, r) => s + BigInt(r.token_amount), 0n)).toBe(9_600_000n);
  });

  it('a refund whose transaction reverts fails with transaction_reverted and releases its reservation; refunded again, it pays', async () => {
    const { id, buyer } = await paid(f, '500');
    const before = await available(shop);
    await anvil().setAutomine(false);
    let refundId: string;
    try {
      refundId = (await refund(id, '500')).body.refund.id;
      await eventually(async () => {
        const tx = await svc.db('chain_transactions').where({ payment_id: id, purpose: 'refund' }).first();
        if (!tx?.broadcast_at) throw new Error('refund not broadcast yet');
      });
      expect(BigInt(await available(shop))).toBe(BigInt(before) - 5_000_000n); // reserved while in flight
      // The token is paused in the same block, ahead of the refund (a higher priority fee): the refund reverts.
      await tokenAdmin('pause');
      await anvil().mine({ blocks: 1 });
    } finally {
      await anvil().setAutomine(true);
    }
    await mined(tokenAdmin('unpause'));
    const failed = await refunded(refundId, 'failed');
    expect(failed.failureCode).toBe('transaction_reverted');
    const events = (await preview()('GET', `/v1/events?paymentId=${id}&limit=100`)).body.events;
    expect(events.find((e: { type: string }) => e.type === 'refund.failed').data.refund).toMatchObject({
      id: refundId!,
      status: 'failed',
      failureCode: 'transaction_reverted',
    });
    expect(await available(shop)).toBe(before);
    expect(await balanceOf(buyer.address)).toBe(95_000_000n);
    // A failed refund is not counted as refunded.
    expect((await preview()('GET', `/v1/payments/${id}`)).body.refundedAmount.value).toBe('0');
    const again = await refund(id, '500');
    await refunded(again.body.refund.id);
    expect(await balanceOf(buyer.address)).toBe(100_000_000n);
  });

  it('a refund whose transaction is dropped is sent again; every export row of the refund names it', async () => {
    const { id, buyer } = await paid(f, '200');
    const client_ = anvil();
    await client_.setAutomine(false);
    let refundId: string;
    try {
      refundId = (await refund(id, '200')).body.refund.id;
      const first = await eventually(async () => {
        const tx = await svc.db('chain_transactions').where({ payment_id: id, purpose: 'refund' }).first();
        if (!tx?.broadcast_at) throw new Error('refund not broadcast yet');
        return tx;
      });
      // Another transaction of the collector's key takes the refund's nonce: the refund is dropped, then sent again.
      await client_.dropTransaction({ hash: first.tx_hash });
      await client_.impersonateAccount({ address: first.sender });
      await client_.sendUnsignedTransaction({
        from: first.sender,
        to: first.sender,
        value: 0n,
        nonce: Number(first.nonce),
        maxFeePerGas: 500_000_000_000n,
        maxPriorityFeePerGas: 500_000_000_000n,
      });
      await client_.mine({ blocks: 1 });
      await client_.stopImpersonatingAccount({ address: first.sender });
    } finally {
      await client_.setAutomine(true);
    }
    await refunded(refundId!);
    expect(await balanceOf(buyer.address)).toBe(100_000_000n);
    expect(await svc.db('chain_transactions').where({ payment_id: id, purpose: 'refund' }).orderBy('nonce').pluck('status')).toEqual([
      'dropped',
      'confirmed',
    ]);
    const range = `from=${encodeURIComponent('2000-01-01T00:00:00Z')}&to=${encodeURIComponent('2100-01-01T00:00:00Z')}`;
    const rows: { type: string; paymentId: string | null; refundId: string | null }[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `/v1/reports/balance-transactions?${range}&limit=200${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await client(svc.url, { 'Api-Key': shop.apiKey, ...PREVIEW })('GET', q);
      rows.push(...page.body.data);
      cursor = page.body.nextCursor;
    } while (cursor);
    const mine = rows.filter((r) => r.paymentId === id && r.type.startsWith('refund'));
    expect([...new Set(mine.map((r) => r.type))].sort()).toEqual(['refund_released', 'refund_reserved', 'refunded']);
    expect(mine.map((r) => r.refundId)).toEqual(mine.map(() => refundId));
  });

  it('a refund waiting for funds never takes what the account owes its other payments’ settlements', async () => {
    const third = await setup(svc);
    const g = flow(svc.url, third.shop, third.gw);
    const first = await paid(g, '200');
    await g.until(first.id, (x) => x.settlement !== null); // settled: nothing of it is left to refund from
    const asThird = client(svc.url, { 'Api-Key': third.shop.apiKey, 'Merchant-Id': third.shop.merchantId, ...PREVIEW });
    const r = await asThird('POST', '/v1/refunds', { body: { paymentId: first.id } });
    expect(r.body.refund.status).toBe('requires_funding');
    await mined(tokenAdmin('blacklist', third.shop.wallet as `0x${string}`));
    try {
      // Another payment collected: its share waits for its settlement (which the token refuses for now), so the
      // refund, looked at again when it was collected, still waits; the share stays the merchant's.
      const second = await paid(g, '300');
      await eventually(async () => {
        const row = await svc.db('refunds').where({ id: r.body.refund.id }).first();
        const collectedAt = (
          await svc
            .db('ledger_journals')
            .where({ ref: `collected:${second.id}` })
            .first()
        ).created_at;
        if (!(row.updated_at > collectedAt)) throw new Error('not looked at since');
      });
      expect((await asThird('GET', `/v1/refunds/${r.body.refund.id}`)).body.refund.status).toBe('requires_funding');
      expect(await available(third.shop)).toBe('3000000');
      expect(await svc.db('chain_transactions').where({ payment_id: first.id, purpose: 'refund' })).toHaveLength(0);
    } finally {
      await mined(tokenAdmin('unBlacklist', third.shop.wallet as `0x${string}`));
    }
  });

  it('a refund waiting its turn keeps its share of the payment owed: a refund of another payment never spends it first', async () => {
    const s = await setup(svc);
    const g = flow(svc.url, s.shop, s.gw);
    const as = client(svc.url, { 'Api-Key': s.shop.apiKey, 'Merchant-Id': s.shop.merchantId, ...PREVIEW });
    const part = (paymentId: string) => as('POST', '/v1/refunds', { body: { paymentId, amount: { unit: 'iso4217/USD', value: '100' } } });
    const sent = (paymentId: string) =>
      svc.db('chain_transactions').where({ payment_id: paymentId, purpose: 'refund' }).whereNotNull('broadcast_at');
    const z = await paid(g, '200');
    await g.until(z.id, (x) => x.settlement !== null); // settled: a refund of z is paid from what is free
    await mined(tokenAdmin('blacklist', s.shop.wallet as `0x${string}`));
    try {
      const p = await paid(g, '200'); // its settlement refused: its share, 2.00, is owed to it
      await anvil().setAutomine(false);
      let rz: { id: string; status: string };
      try {
        await part(p.id);
        await eventually(async () => expect(await sent(p.id)).toHaveLength(1)); // 1.00 reserved, in the mempool
        // The second refund of p waits for the first's transaction (one at a time per payment), not reserved yet.
        const r2 = await part(p.id);
        expect(r2.body.refund.status).toBe('pending');
        rz = (await part(z.id)).body.refund;
        // The relayer looked at z's refund: what is left at the collector is p's, owed to its waiting refund.
        await eventually(async () => {
          const row = await svc.db('refunds').where({ id: rz.id }).first();
          if (!(row.updated_at > row.created_at || (await sent(z.id)).length)) throw new Error('not looked at yet');
        });
        await anvil().mine({ blocks: 1 });
      } finally {
        await anvil().setAutomine(true);
      }
      const r2Done = await eventually(async () => {
        const all = (await as('GET', `/v1/refunds?paymentId=${p.id}`)).body.data as { status: string }[];
        if (all.length !== 2 || all.some((r) => r.status !== 'succeeded')) throw new Error(JSON.stringify(all));
        return all;
      }, 30_000);
      expect(r2Done).toHaveLength(2);
      expect(rz!.status).toBe('requires_funding');
      expect(await balanceOf(p.buyer.address)).toBe(100_000_000n);
      expect((await as('GET', `/v1/refunds/${rz!.id}`)).body.refund.status).toBe('requires_funding');
      expect(await sent(z.id)).toHaveLength(0);
      expect(await available(s.shop)).toBe('0');
    } finally {
      await mined(tokenAdmin('unBlacklist', s.shop.wallet as `0x${string}`));
    }
    const check = await adminWith({}, 'ledger', 'check');
    expect({ code: check.code, differences: check.out.differences }).toEqual({ code: 0, differences: [] });
  });

  it('a refund the balance does not cover waits in requires_funding, moves nothing, and goes out once its funding payment is paid (settled, or direct mode)', async () => {
    const other = await setup(svc);
    const g = flow(svc.url, other.shop, other.gw);
    const { id, buyer } = await paid(g, '200');
    await g.until(id, (x) => x.settlement !== null);
    const asOther = client(svc.url, { 'Api-Key': other.shop.apiKey, 'Merchant-Id': other.shop.merchantId, ...PREVIEW });
    const r = await asOther('POST', '/v1/refunds', { body: { paymentId: id } });
    expect(r.body.refund.status).toBe('requires_funding');
    expect(await available(other.shop)).toBe('0');

    await admin('accounts', 'set-mode', '--account', other.shop.accountId, '--mode', 'direct');
    const direct = await paid(g, '400');
    const d = await asOther('POST', '/v1/refunds', { body: { paymentId: direct.id, amount: { unit: 'iso4217/USD', value: '200' } } });
    expect(d.body.refund.status).toBe('requires_funding');
    // The relayer's step looked at each (and said so in the row) and sent nothing.
    for (const refundId of [r.body.refund.id, d.body.refund.id])
      await eventually(async () => {
        const row = await svc.db('refunds').where({ id: refundId }).first();
        if (!(row.updated_at > row.created_at)) throw new Error('not looked at yet');
      });
    expect(await svc.db('chain_transactions').whereIn('payment_id', [id, direct.id]).where({ purpose: 'refund' })).toHaveLength(0);
    expect(await balanceOf(buyer.address)).toBe(98_000_000n);
    expect((await asOther('GET', `/v1/refunds/${d.body.refund.id}`)).body.refund.status).toBe('requires_funding');

    // Funded: each refund's funding payment, paid by anyone through the gateway in the refund's token, to a collector
    // also for a direct-mode account, is credited to the account (not settled) and the refunds go out.
    const destinationBefore = await balanceOf(other.shop.wallet);
    for (const waiting of [r, d]) {
      const funding = waiting.body.refund.fundingInstructions;
      expect(funding.gatewayUrl).toBe(`https://pay.example.com/?pid=${funding.paymentId}`);
      const funder = await newBuyer(10_000_000n);
      const { opt, td } = await g.option(funding.paymentId, funder);
      expect({ primaryType: td.primaryType, asset: opt.amount.unit }).toEqual({
        primaryType: 'ReceiveWithAuthorization',
        asset: `caip19/${DEVNET_USDC}`,
      });
      expect((await g.confirm(funding.paymentId, opt.id, await funder.signTypedData(td))).status).toBe(200);
    }
    for (const waiting of [r, d])
      await eventually(async () => {
        const x = (await asOther('GET', `/v1/refunds/${waiting.body.refund.id}`)).body.refund;
        if (x.status !== 'succeeded') throw new Error(JSON.stringify(x));
      }, 60_000);
    expect(await balanceOf(buyer.address)).toBe(100_000_000n);
    expect(await balanceOf(direct.buyer.address)).toBe(98_000_000n);
    expect(await balanceOf(other.shop.wallet)).toBe(destinationBefore);
    expect(await available(other.shop)).toBe('0');
  }, 180_000);
  it('a held settlement’s share stays owed: a refund of another payment waits for its funding, earmarked for it; retried, the settlement sends it all', async () => {
    const s = await setup(svc);
    const g = flow(svc.url, s.shop, s.gw);
    const as = client(svc.url, { 'Api-Key': s.shop.apiKey, 'Merchant-Id': s.shop.merchantId, ...PREVIEW });
    const x = await paid(g, '100');
    await g.until(x.id, (y) => y.settlement !== null);
    // A settlement the token refuses, then held by the operator: a hold pauses it, its 3.00 stays owed to it.
    await mined(tokenAdmin('blacklist', s.shop.wallet as `0x${string}`));
    let held: { id: string };
    try {
      held = await paid(g, '300');
      expect(await admin('settlements', 'hold', '--payment', held.id)).toMatchObject({ held: true });
    } finally {
      await mined(tokenAdmin('unBlacklist', s.shop.wallet as `0x${string}`));
    }
    const rx = await as('POST', '/v1/refunds', { body: { paymentId: x.id } });
    expect(rx.body.refund.status).toBe('requires_funding');
    const funding = rx.body.refund.fundingInstructions;
    const funder = await newBuyer(10_000_000n);
    const { opt, td } = await g.option(funding.paymentId, funder);
    expect(opt.amount.value).toBe('1000000');
    expect((await g.confirm(funding.paymentId, opt.id, await funder.signTypedData(td))).status).toBe(200);
    const done = await eventually(async () => {
      const r = (await as('GET', `/v1/refunds/${rx.body.refund.id}`)).body.refund;
      if (r.status !== 'succeeded') throw new Error(JSON.stringify(r));
      return r;
    }, 30_000);
    expect((await receiptOf(done.txId)).status).toBe('success');
    expect(await balanceOf(x.buyer.address)).toBe(100_000_000n);
    // The funding was credited to the refund and spent by it; the held share was not touched.
    const kinds = await svc.db('ledger_journals').where({ refund_id: rx.body.refund.id }).orderBy('id').pluck('kind');
    expect(kinds).toEqual(['collected', 'refund_reserved', 'refunded']);
    expect(await available(s.shop)).toBe('3000000');
    const destinationBefore = await balanceOf(s.shop.wallet);
    expect(await admin('settlements', 'retry', '--payment', held!.id)).toMatchObject({ retried: true });
    await g.until(held!.id, (y) => y.settlement !== null);
    expect((await balanceOf(s.shop.wallet)) - destinationBefore).toBe(3_000_000n);
    expect(await available(s.shop)).toBe('0');
    // The check once the settlement is final in the ledger too: mined, it may not be recorded yet (nothing reserved).
    await eventually(async () => {
      const b = (await as('GET', '/v1/balance')).body.balances.find((x: { asset: string }) => x.asset === DEVNET_USDC);
      if (b.reserved !== '0') throw new Error(JSON.stringify(b));
    }, 30_000);
    const check = await adminWith({}, 'ledger', 'check');
    expect({ code: check.code, differences: check.out.differences }).toEqual({ code: 0, differences: [] });
  });
});
