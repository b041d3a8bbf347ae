import { startTestService, TestService } from '../support/service';
import { balanceOf, chainClient, tokenAdmin } from '../support/chain';
import { flow, setup, Shop } from '../support/chainSuite';
import { refundHelpers } from '../support/refundsSuite';

// What refunds may make the relayer spend (docs/limits.md "Refunds"), with the service's default settings: a partial
// refund below the minimum of its currency and chain is 422 refund_below_minimum, a payment takes 10 refunds at most
// (the last of them of all that is left, else 409 too_many_refunds), and a refund of all that is left is never refused
// for either. The merchant's destination is blacklisted on the token, so the payments' shares stay at the collector.

// Real processes, a real chain and block waits: generous limits on a shared 2-core machine (not timings).
jest.setTimeout(120_000);

/** The gas a refund transfer is priced at, as docs/limits.md states it. */
const TRANSFER_GAS = 65_000n;

describe('refund limits', () => {
  let svc: TestService;
  let f: ReturnType<typeof flow>;
  let shop: Shop;
  const { mined, refund, refunded, paid } = refundHelpers(() => ({ svc, shop }));
  const stored = async (paymentId: string) => ({
    refunds: (await svc.db('refunds').where({ payment_id: paymentId })).length,
    transfers: (await svc.db('chain_transactions').where({ payment_id: paymentId, purpose: 'refund' })).length,
  });
  /** The minimum a refusal names, in minor units. */
  const minimumOf = (message: string) => BigInt(/\(minimum (\d+) in minor units\)/.exec(message)![1]);

  beforeAll(async () => {
    svc = await startTestService();
    const s = await setup(svc);
    shop = s.shop;
    f = flow(svc.url, shop, s.gw);
    await mined(tokenAdmin('blacklist', shop.wallet as `0x${string}`));
  });
  afterAll(async () => {
    await mined(tokenAdmin('unBlacklist', shop.wallet as `0x${string}`));
    await svc.close();
  });

  it('100 refunds of one cent of a USD 1.00 payment: each refused refund_below_minimum, nothing stored, nothing sent', async () => {
    const { id, buyer } = await paid(f, '100');
    const answers = await Promise.all(Array.from({ length: 100 }, () => refund(id, '1')));
    const outcomes = new Set(answers.map((a) => `${a.status} ${a.body.code}`));
    expect([...outcomes]).toEqual(['422 refund_below_minimum']);
    expect(answers[0].body.message).toMatch(/^A partial refund must be at least \$\d+\.\d\d \(minimum \d+ in minor units\)/);
    expect(await stored(id)).toEqual({ refunds: 0, transfers: 0 });
    expect(await balanceOf(buyer.address)).toBe(99_000_000n);
  });

  it('the minimum is the floor or the transfer’s gas at the chain’s fees: a refund of it is accepted and paid on chain', async () => {
    const { id, buyer } = await paid(f, '1000');
    const below = await refund(id, '49');
    expect({ status: below.status, code: below.body.code }).toEqual({ status: 422, code: 'refund_below_minimum' });
    const minimum = minimumOf(below.body.message);
    // The relayer offers at least the node's tip per gas; one ether is priced at USD 10,000 (100 cents in each).
    const tip = await chainClient().estimateMaxPriorityFeePerGas();
    const gasCents = (TRANSFER_GAS * tip * 1_000_000n + 10n ** 18n - 1n) / 10n ** 18n;
    expect(minimum).toBeGreaterThanOrEqual(gasCents > 50n ? gasCents : 50n);
    process.stdout.write(`refund limits: minimum USD ${minimum} cents at a tip of ${tip} wei per gas\n`);
    expect(await stored(id)).toEqual({ refunds: 0, transfers: 0 });

    const at = await refund(id, minimum.toString());
    expect(at.status).toBe(200);
    const done = await refunded(at.body.refund.id);
    expect((await chainClient().getTransactionReceipt({ hash: done.txId })).status).toBe('success');
    expect(await balanceOf(buyer.address)).toBe(90_000_000n + minimum * 10_000n);
  });

  it('a payment takes 10 refunds: the 10th partial one is 409 too_many_refunds, a refund of all that is left is accepted', async () => {
    const { id, buyer } = await paid(f, '2000');
    for (let i = 0; i < 9; i++) {
      const r = await refund(id, '200');
      expect(r.status).toBe(200);
      await refunded(r.body.refund.id);
    }
    const tenth = await refund(id, '100');
    expect({ status: tenth.status, code: tenth.body.code }).toEqual({ status: 409, code: 'too_many_refunds' });
    expect(tenth.body.message).toContain('all that is left ($2.00)');
    expect(await stored(id)).toEqual({ refunds: 9, transfers: 9 });
    const rest = await refund(id);
    expect(rest.status).toBe(200);
    expect(rest.body.refund.amount.value).toBe('200');
    await refunded(rest.body.refund.id);
    expect(await balanceOf(buyer.address)).toBe(100_000_000n);
    const again = await refund(id);
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 'already_refunded' });
  });

  it('a payment smaller than the minimum: a partial refund is refused, a refund of all of it is accepted and paid', async () => {
    const { id, buyer } = await paid(f, '30');
    const part = await refund(id, '10');
    expect({ status: part.status, code: part.body.code }).toEqual({ status: 422, code: 'refund_below_minimum' });
    expect(minimumOf(part.body.message)).toBeGreaterThan(30n);
    const whole = await refund(id);
    expect(whole.status).toBe(200);
    expect(whole.body.refundedAt).toEqual(expect.any(String));
    await refunded(whole.body.refund.id);
    expect(await balanceOf(buyer.address)).toBe(100_000_000n);
    expect(await stored(id)).toEqual({ refunds: 1, transfers: 1 });
  });
});
