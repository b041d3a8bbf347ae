import { balanceOf, newBuyer, newWallet } from '../support/chain';
import { eventually, flow, useChainSuite } from '../support/chainSuite';
import { merchantWithSettlement } from '../support/fixtures';
import { client, newKey, startTestService, type TestService } from '../support/service';

// A settlement whose destination the token refuses (blacklisted after the settlement was registered) is tried, shown
// in payment details as `settlement.pending` while its next attempt waits (4 s here), then held after its attempts
// and shown as `settlement.failed`, on both versions, with what to do: change the destination. The change sends it
// again, to the new destination, and it settles there (docs/api.md, "Settlement in payment details").

useChainSuite();

const VERSIONS = ['2026-02-18', '2026-02-19.preview'];

describe('a held settlement (SETTLEMENT_MAX_ATTEMPTS=2, SETTLEMENT_RETRY_BASE_MS=4000)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ SETTLEMENT_MAX_ATTEMPTS: '2', SETTLEMENT_RETRY_BASE_MS: '4000' });
  });
  afterAll(() => svc?.close());

  it('shows its failed variant, and settles to the new destination once the destination is changed', async () => {
    const shop = await merchantWithSettlement(svc, 'Held Shop', 'test');
    const gw = client(svc.url, { 'Api-Key': (await newKey(shop.accountId, 'wallet', undefined, 'test')).apiKey });
    const f = flow(svc.url, shop, gw);
    const helpers = client(svc.url, { 'Api-Key': shop.apiKey, 'PAY-Version': '2026-02-19.preview' });
    // The destination was fine when registered; the token's issuer blacklists it afterwards.
    const b = await helpers('POST', '/v1/test-helpers/blacklist', { body: { account: `eip155:31337:${shop.wallet}` } });
    expect(b.status).toBe(200);

    const buyer = await newBuyer(10_000_000n);
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).status).toBe(200);
    const details = (version: string) =>
      client(svc.url, { 'Api-Key': shop.apiKey, 'Merchant-Id': shop.merchantId, 'PAY-Version': version })('GET', `/v1/payments/${id}`);
    // Its first attempt failed; the next waits.
    await f.until(id, (d) => d.status === 'succeeded' && d.settlement?.pending !== undefined, 60_000);
    const pending = await svc.db('payments').where({ id }).first();
    expect(pending).toMatchObject({ settlement_attempts: 1, settlement_held_at: null });
    for (const version of VERSIONS)
      expect((await details(version)).body.settlement).toEqual({
        pending: {
          status: 'pending',
          code: 'retrying',
          message: expect.any(String),
          attempts: 1,
          nextAttemptAt: new Date(pending.settlement_next_at).toISOString(),
        },
      });
    const held = await f.until(id, (d) => d.settlement?.failed !== undefined, 60_000);
    const stored = await svc.db('payments').where({ id }).first();
    expect(stored).toMatchObject({ settlement_attempts: 2, settled_at: null, settlement_hold_reason: 'simulation:token_refused' });
    for (const version of VERSIONS) {
      expect((await details(version)).body.settlement).toEqual({
        failed: {
          status: 'failed',
          code: 'token_refused',
          message: expect.stringContaining('change the destination'),
          attempts: 2,
          heldAt: new Date(stored.settlement_held_at).toISOString(),
          action: 'change_destination',
        },
      });
    }
    expect(held.settlement.failed.heldAt).toBe(new Date(stored.settlement_held_at).toISOString());
    expect(await balanceOf(shop.wallet)).toBe(0n);

    // The partner changes the destination: the held settlement is sent again, there.
    const { crypto } = (await shop.api('GET', `/v1/merchants/${shop.merchantId}/settlements`)).body;
    const next = newWallet();
    const put = await shop.api('PUT', `/v1/merchants/${shop.merchantId}/settlements/crypto/${crypto[0].id}`, {
      body: { destination: `eip155:31337:${next}` },
    });
    expect(put.status).toBe(200);
    const settled = await f.until(id, (d) => d.settlement?.successful !== undefined, 60_000);
    expect(settled.settlement.successful.amount.value).toBe((await balanceOf(next)).toString());
    expect(await balanceOf(next)).toBeGreaterThan(0n);
    await eventually(async () => {
      const p = await svc.db('payments').where({ id }).first();
      if (p.settlement_destination !== `eip155:31337:${next}`) throw new Error(`sent to ${p.settlement_destination}`);
    });
    expect(await balanceOf(shop.wallet)).toBe(0n);
  });
});
