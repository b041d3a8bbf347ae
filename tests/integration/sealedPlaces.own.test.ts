import type { PrivateKeyAccount } from 'viem/accounts';
import { verifyWebhook } from '../../clients/typescript/src/webhooks';
import { newBuyer } from '../support/chain';
import { eventually } from '../support/eventually';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, newKey, setAccountThreshold, startTestService, TestService } from '../support/service';
import { Receiver, startReceiver } from '../support/webhookReceiver';

// Whoever can write to the database but does not hold the data key must not be able to hand one row's sealed
// value to another: a webhook endpoint's signing secret copied into another endpoint's row signs nothing
// there, and a buyer's data copied onto another buyer's option is not taken for that buyer's.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
const DATA = { fullName: 'Ada Lovelace', dob: '1815-12-10', porCountry: 'GB', porAddress: '12 St James Sq, London', tosConfirmed: true };

describe('sealed values are bound to their row and column', () => {
  let svc: TestService;
  let m: Awaited<ReturnType<typeof merchantWithSettlement>>;
  let gw: ReturnType<typeof client>;
  let victim: Receiver;
  let attacker: Receiver;
  beforeAll(async () => {
    svc = await startTestService();
    m = await merchantWithSettlement(svc, 'Sealed places');
    gw = client(svc.url, { 'Api-Key': (await newKey(m.accountId, 'wallet')).apiKey });
    [victim, attacker] = [await startReceiver('/victim'), await startReceiver('/attacker')];
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    await victim?.close();
    await attacker?.close();
  });

  const newPayment = async (value: string) => {
    const r = await m.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value } },
    });
    if (r.status !== 201) throw new Error(r.text);
    return r.body.paymentId as string;
  };
  const verifies = (r: { raw: string; headers: Record<string, string> }, secret: string) => {
    try {
      verifyWebhook(r.raw, r.headers, [secret]);
      return true;
    } catch {
      return false;
    }
  };

  it("a signing secret copied into another endpoint's row does not sign that endpoint's deliveries", async () => {
    const endpoint = async (rx: Receiver) => {
      const r = await m.api('POST', '/v1/webhook-endpoints', {
        body: { url: rx.url, enabledEvents: ['payment.created'] },
        headers: { ...PREVIEW, 'Idempotency-Key': uniqueKey() },
      });
      expect(r.status).toBe(201);
      return { id: r.body.endpoint.id as string, secret: r.body.secret as string };
    };
    const v = await endpoint(victim);
    const a = await endpoint(attacker);
    // The attacker's row gets the victim's sealed secret: its deliveries would carry the victim's signature.
    const { secret } = await svc.db('webhook_endpoints').where({ id: v.id }).first('secret');
    await svc.db('webhook_endpoints').where({ id: a.id }).update({ secret });

    const paymentId = await newPayment('100');
    const forPayment = (rx: Receiver) => rx.received.filter((r) => r.body?.data?.payment?.paymentId === paymentId);
    await victim.until((all) => all.some((r) => r.body?.data?.payment?.paymentId === paymentId));
    expect(forPayment(victim).every((r) => verifies(r, v.secret))).toBe(true);
    // The attacker's delivery is attempted, and fails without a request: nothing signed with the victim's secret leaves.
    const attempts = await eventually(
      () =>
        svc
          .db('webhook_attempts as t')
          .join('payment_events as e', 'e.id', 't.event_id')
          .where({ 'e.payment_id': paymentId, 't.endpoint_id': a.id })
          .select('t.*'),
      (rows) => rows.length > 0,
      20_000,
    );
    expect(attempts[0]).toMatchObject({
      succeeded: false,
      response_status: null,
      error: expect.stringContaining('signing secret does not open'),
    });
    expect(forPayment(attacker).filter((r) => verifies(r, v.secret))).toEqual([]);
    expect(forPayment(attacker)).toEqual([]);
  }, 60_000);

  it("buyer data copied onto another buyer's option is not that buyer's: fetch and confirm ask for it", async () => {
    await setAccountThreshold(m.accountId, 500n);
    const paymentId = await newPayment('1000');
    const first: PrivateKeyAccount = await newBuyer(1_000_000_000n);
    const second: PrivateKeyAccount = await newBuyer(1_000_000_000n);
    const optionFor = async (buyer: PrivateKeyAccount) => {
      const o = await gw('POST', `/v1/gateway/payment/${paymentId}/options`, { body: { accounts: [`eip155:31337:${buyer.address}`] } });
      expect(o.status).toBe(200);
      return o.body.options[0];
    };
    const one = await optionFor(first);
    expect((await gw('POST', `/v1/gateway/payment/${paymentId}/fetch`, { body: { optionId: one.id, data: DATA } })).status).toBe(200);
    const two = await optionFor(second);
    const { collected_data } = await svc.db('payment_options').where({ id: one.id }).first('collected_data');
    await svc.db('payment_options').where({ id: two.id }).update({ collected_data });

    const fetched = await gw('POST', `/v1/gateway/payment/${paymentId}/fetch`, { body: { optionId: two.id, data: {} } });
    expect({ status: fetched.status, code: fetched.body.code, reason: fetched.body.reason }).toEqual({
      status: 400,
      code: 'invalid_params',
      reason: 'collect_data_required',
    });
    const sig = await second.signTypedData(JSON.parse(two.actions[0].data.params[1]));
    const c = await gw('POST', `/v1/gateway/payment/${paymentId}/confirm`, {
      body: { optionId: two.id, results: [{ type: 'walletRpc', data: [sig] }] },
    });
    expect({ status: c.status, code: c.body.code, reason: c.body.reason }).toEqual({
      status: 400,
      code: 'invalid_params',
      reason: 'collect_data_required',
    });
    expect((await svc.db('payments').where({ id: paymentId }).first('status', 'collected_data')).collected_data).toBeNull();
    // A fresh quote for the second buyer does not inherit the copied data either.
    const three = await optionFor(second);
    const again = await gw('POST', `/v1/gateway/payment/${paymentId}/fetch`, { body: { optionId: three.id, data: {} } });
    expect(again.body.reason).toBe('collect_data_required');
  }, 60_000);
});
