import { client, newAccount } from '../support/service';
import { devnetAssetId } from '../../src/chain/devnet';
import { DEVNET2_CHAIN_ID } from '../support/chain';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { BASE, direct, m, newPayment, paySucceeded, svc, usd, usePaymentsSuite } from '../support/paymentsSuite';

usePaymentsSuite();

describe('lists', () => {
  let shop: Awaited<ReturnType<typeof merchantWithSettlement>>;
  let second: string;
  const ids: string[] = [];
  beforeAll(async () => {
    shop = await merchantWithSettlement(svc, 'Lister');
    const s2 = await shop.api('POST', '/v1/merchants', {
      body: { merchantName: 'Second', merchantEmail: 's@x.io' },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    second = s2.body.merchant.id;
    await shop.api('POST', `/v1/merchants/${second}/settlements/crypto`, {
      body: {
        settlements: [
          {
            asset: devnetAssetId('USDC', DEVNET2_CHAIN_ID),
            destination: `eip155:${DEVNET2_CHAIN_ID}:0x52908400098527886E0F7030069857D2E4169EE7`,
          },
        ],
      },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    for (let i = 0; i < 12; i++) {
      const r = await shop.asMerchant('POST', '/v1/payments', {
        body: { referenceId: `ORD-${i % 3 === 0 ? 'A' : 'B'}-${i}`, amount: usd(String(100 + i)) },
      });
      ids.push(r.body.paymentId);
    }
    const other = await client(svc.url, { 'Api-Key': shop.apiKey, 'Merchant-Id': second })('POST', '/v1/payments', {
      body: { referenceId: 'SECOND-1', amount: usd('999') },
    });
    ids.push(other.body.paymentId);
    await shop.asMerchant('POST', `/v1/payments/${ids[0]}/cancel`);
    await paySucceeded(ids[1], shop.accountId);
    await paySucceeded(ids[2], shop.accountId);
  }, 60_000); // the admin command and two payments paid on chain: slow on a busy machine

  it('GET /v1/payments lists the whole account newest first, with stats', async () => {
    const r = await shop.api('GET', '/v1/payments');
    expect(r.status).toBe(200);
    expect(r.body.data.map((p: { paymentId: string }) => p.paymentId)).toEqual([...ids].reverse());
    expect(r.body.data[0]).toMatchObject({
      paymentId: ids[12],
      merchant: { id: second, name: 'Second' },
      referenceId: 'SECOND-1',
      status: 'requires_action',
      isTerminal: false,
      fiatAmount: { unit: 'iso4217/USD', value: '999' },
    });
    expect(r.body.stats).toEqual({
      totalRevenue: [{ amount: 2.03, currency: 'USD' }], // USD 1.01 + 1.02, in the major unit
      totalTransactions: 13, // every payment listed: open, cancelled and succeeded alike
      totalCustomers: 1,
    });
    expect(r.body.nextCursor).toBeNull();
  });

  it('filters by merchant, status (repeatable), referenceId substring, and time', async () => {
    const byMerchant = await shop.api('GET', `/v1/payments?merchantId=${second}`);
    expect(byMerchant.body.data.map((p: { paymentId: string }) => p.paymentId)).toEqual([ids[12]]);
    const st = await shop.api('GET', '/v1/payments?status=cancelled&status=succeeded');
    expect(st.body.data.map((p: { paymentId: string }) => p.paymentId).sort()).toEqual([ids[0], ids[1], ids[2]].sort());
    expect(st.body.stats.totalTransactions).toBe(3); // the stats follow the filters
    const ref = await shop.api('GET', '/v1/payments?referenceId=-A-');
    expect(ref.body.data).toHaveLength(4);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await shop.api('GET', `/v1/payments?startTs=${future}`)).body.data).toEqual([]);
    expect((await shop.api('GET', `/v1/payments?endTs=${future}`)).body.data).toHaveLength(13);
    const intruder = await newAccount('ListPeek');
    expect((await client(svc.url, { 'Api-Key': intruder.apiKey })('GET', `/v1/payments?merchantId=${second}`)).status).toBe(403);
  });

  it('a merchantId filter with a NUL (schema-valid; found by Schemathesis) matches no merchant: 404 like any unknown id', async () => {
    for (const qs of ['merchantId=%00', 'merchantId=mrch_%00abc', `merchantId=${second}%00`]) {
      const r = await shop.api('GET', `/v1/payments?${qs}`);
      expect([qs, r.status, r.body.code]).toEqual([qs, 404, 'merchant_not_found']);
    }
    const unknown = await shop.api('GET', '/v1/payments?merchantId=mrch_unknown');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'merchant_not_found']);
  });

  it('pages with stable cursors under inserts, in any sort', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: { status: number; body: { data: { paymentId: string }[]; nextCursor: string | null } } = await shop.asMerchant(
        'GET',
        `/v1/merchants/payments?limit=5&sortBy=amount&sortDir=asc${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((p) => p.paymentId));
      cursor = r.body.nextCursor;
      await shop.asMerchant('POST', '/v1/payments', { body: { referenceId: 'late', amount: usd('1') } });
    } while (cursor);
    expect(seen.slice(0, 12)).toEqual(ids.slice(0, 12));
    const mismatch = await shop.asMerchant(
      'GET',
      `/v1/merchants/payments?limit=5&sortBy=amount&sortDir=desc&cursor=${
        (await shop.asMerchant('GET', '/v1/merchants/payments?limit=1&sortBy=amount&sortDir=asc')).body.nextCursor
      }`,
    );
    expect(mismatch.status).toBe(400);
  });

  it('the deprecated per-merchant path keeps the snake_case shape', async () => {
    const r = await shop.api('GET', `/v1/merchants/${second}/payments`);
    expect(r.status).toBe(200);
    expect(r.body.data[0]).toMatchObject({
      payment_id: ids[12],
      merchant_id: second,
      reference_id: 'SECOND-1',
      status: 'requires_action',
      is_terminal: false,
      fiat_amount: 999,
      fiat_currency: 'USD',
    });
    expect(r.body.stats).toMatchObject({ total_transactions: 1, total_customers: 0 }); // SECOND-1, open: no customer yet
  });

  it("a deleted merchant: its path is 404 (found by the contract gate's use-after-free check); its payments stay listed as the account's", async () => {
    const gone = await merchantWithSettlement(svc, 'Gone');
    const r = await gone.asMerchant('POST', '/v1/payments', { body: { referenceId: 'gone-1', amount: usd() } });
    expect(r.status).toBe(201);
    expect((await gone.api('DELETE', `/v1/merchants/${gone.merchantId}`)).status).toBe(200);
    const nested = await gone.api('GET', `/v1/merchants/${gone.merchantId}/payments`);
    expect([nested.status, nested.body.code]).toEqual([404, 'merchant_not_found']);
    const listed = await gone.api('GET', `/v1/payments?merchantId=${gone.merchantId}`);
    expect([listed.status, listed.body.data.map((p: any) => p.paymentId)]).toEqual([200, [r.body.paymentId]]);
    const byHeader = await gone.asMerchant('GET', '/v1/merchants/payments');
    expect([byHeader.status, byHeader.body.data.map((p: any) => p.paymentId)]).toEqual([200, [r.body.paymentId]]);
  });

  it.each([
    ['limit=0'],
    ['limit=201'],
    ['status=paid'],
    ['sortBy=name'],
    ['cursor=zzz'],
    ['startTs=abc'],
    ['network=Z%C2%AF%00'],
    ['startTs=9223372036854775807'],
    [`cursor=${Buffer.from('{"s":"createdAt","d":"desc","i":"pay_x","v":"12"}').toString('base64url')}`],
  ])('refuses %s with 400', async (qs) => {
    const r = await client(svc.directUrl, { 'Api-Key': shop.apiKey })('GET', `/v1/payments?${qs}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('params_validation');
  });
});

describe('deprecated paths of the hosted e-commerce guides', () => {
  it('POST /v1/merchant/payment and GET /v1/merchant/payment/{id}/status are createPayment and getPaymentStatus', async () => {
    const key = uniqueKey('alias');
    const r = await m.asMerchant('POST', '/v1/merchant/payment', {
      body: { referenceId: 'order-alias', amount: usd('1250') },
      headers: { 'Idempotency-Key': key },
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      paymentId: expect.stringMatching(/^pay_/),
      status: 'requires_action',
      expiresAt: expect.any(Number),
      isFinal: false,
      pollInMs: expect.any(Number),
      gatewayUrl: `${BASE}/?pid=${r.body.paymentId}`,
    });
    const row = await svc.db('payments').where({ id: r.body.paymentId }).first();
    expect(row).toMatchObject({ merchant_id: m.merchantId, reference_id: 'order-alias', amount_minor: '1250', status: 'requires_action' });
    // The same idempotency: a retry replays, and the payment exists once.
    const again = await m.asMerchant('POST', '/v1/merchant/payment', {
      body: { referenceId: 'order-alias', amount: usd('1250') },
      headers: { 'Idempotency-Key': key },
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.paymentId).toBe(r.body.paymentId);
    expect(Number((await svc.db('payments').where({ merchant_id: m.merchantId, reference_id: 'order-alias' }).count('* as n'))[0].n)).toBe(
      1,
    );

    const s = await m.asMerchant('GET', `/v1/merchant/payment/${r.body.paymentId}/status`);
    expect(s.status).toBe(200);
    expect(s.body).toEqual((await m.asMerchant('GET', `/v1/payments/${r.body.paymentId}/status`)).body);
    expect(s.body).toMatchObject({ status: 'requires_action', isFinal: false });
    // Same errors as the operations they alias: no Merchant-Id, another account's payment.
    const noMerchant = await client(svc.directUrl, { 'Api-Key': m.apiKey })('POST', '/v1/merchant/payment', {
      body: { referenceId: 'x', amount: usd() },
    });
    expect(noMerchant.status).toBe(401);
    expect(noMerchant.body.code).toBe('missing_merchant_id');
    const other = await merchantWithSettlement(svc, 'Alias other');
    const foreign = await other.asMerchant('GET', `/v1/merchant/payment/${r.body.paymentId}/status`);
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('forbidden');
  });
});

describe('integer query values checked on their raw text (found by the contract gate)', () => {
  it('maxPollMs=2^63 is 400 params_validation; 2^63-1 is valid (capped), on every status path', async () => {
    const id = await newPayment();
    expect((await m.asMerchant('POST', `/v1/payments/${id}/cancel`)).status).toBe(200); // final: no wait
    const gw = client(svc.directUrl, { 'Api-Key': m.apiKey });
    for (const [call, path] of [
      [direct, `/v1/payments/${id}/status`],
      [direct, `/v1/merchant/payment/${id}/status`],
      [gw, `/v1/gateway/payment/${id}/status`],
    ] as const) {
      const over = await call('GET', `${path}?maxPollMs=9223372036854775808`);
      expect(over.status).toBe(400);
      expect(over.body).toMatchObject({
        code: 'params_validation',
        issues: [{ field: 'maxPollMs', message: expect.stringContaining('int64') }],
      });
      const max = await call('GET', `${path}?maxPollMs=9223372036854775807`);
      expect(max.status).toBe(200);
      expect(max.body).toMatchObject({ status: 'cancelled', isFinal: true });
    }
  });

  // Found by the contract gate: `maxPollMs=3.402823466e%2B38` on a confirm was answered 200, since the
  // number of that text is an integer. Sent direct: Prism rejects it before the service sees it.
  it('an integer query value not written in decimal digits is 400 params_validation (exponent, fraction, blank)', async () => {
    const id = await newPayment();
    const gw = client(svc.directUrl, { 'Api-Key': m.apiKey });
    for (const [call, method, path, name, value] of [
      [gw, 'POST', `/v1/gateway/payment/${id}/confirm`, 'maxPollMs', '3.402823466e%2B38'],
      [direct, 'GET', `/v1/payments/${id}/status`, 'maxPollMs', '1e3'],
      [gw, 'GET', `/v1/gateway/payment/${id}/status`, 'maxPollMs', '100.0'],
      [direct, 'GET', '/v1/payments', 'limit', '1e1'],
      [direct, 'GET', '/v1/payments', 'limit', '%2010'],
    ] as const) {
      const r = await call(method, `${path}?${name}=${value}`, method === 'POST' ? { body: { optionId: 'opt_x', results: [] } } : {});
      expect([path, r.status]).toEqual([path, 400]);
      expect(r.body).toMatchObject({
        code: 'params_validation',
        issues: [{ field: name, message: expect.stringContaining('decimal digits') }],
      });
    }
    // The validator drops the first `?` of the query (openapi-backend): `maxPollMs?=` is maxPollMs to it, and so here.
    const sneaky = await direct('GET', `/v1/payments/${id}/status?maxPollMs?=1e3`);
    expect(sneaky.status).toBe(400);
    expect(sneaky.body).toMatchObject({ code: 'params_validation', issues: [{ field: 'maxPollMs' }] });
    expect((await direct('GET', '/v1/payments?limit=10')).status).toBe(200);
    expect((await direct('GET', '/v1/payments?limit=%2B10')).status).toBe(200); // "+10": a sign is allowed
    expect((await direct('GET', `/v1/payments/${id}/status?maxPollMs=0`)).status).toBe(200);
  });
});
