import { uniqueKey } from '../support/fixtures';
import { confirm, firstOption, gw, m, newPayment, signAction, svc, untilFinal, useGatewaySuite } from '../support/gatewaySuite';

useGatewaySuite();

describe('buyer cancel, decline and status', () => {
  it('cancel -> cancelled_by_user; then 409 invalid_state', async () => {
    const id = await newPayment();
    const r = await gw('POST', `/v1/gateway/payment/${id}/cancel`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ paymentId: id, status: 'cancelled', cancelledReason: 'cancelled_by_user', cancelledAt: expect.any(String) });
    expect((await gw('POST', `/v1/gateway/payment/${id}/cancel`)).body.code).toBe('invalid_state');
    expect((await gw('GET', `/v1/gateway/payment/${id}/status`)).body).toMatchObject({ status: 'cancelled', isFinal: true });
  });
  it('decline -> failed with declined_user; a confirm afterwards is 409 invalid_state', async () => {
    const id = await newPayment();
    const opt = await firstOption(id);
    const r = await gw('POST', `/v1/gateway/payment/${id}/decline`);
    expect(r.body).toEqual({ status: 'failed', isFinal: true, pollInMs: null, failureCode: 'declined_user', info: null });
    expect((await m.asMerchant('GET', `/v1/payments/${id}`)).body).toMatchObject({ status: 'failed', failureCode: 'declined_user' });
    expect((await confirm(id, opt.id, await signAction(opt))).body.code).toBe('invalid_state');
  });
  it('cancel of an expired payment is 410 payment_expired', async () => {
    const id = await newPayment();
    await svc
      .db('payments')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await gw('POST', `/v1/gateway/payment/${id}/cancel`)).body.code).toBe('payment_expired');
  });
  it('status long-polls: a confirm wakes a waiting wallet', async () => {
    const id = await newPayment();
    const opt = await firstOption(id);
    const sig = await signAction(opt);
    const started = Date.now();
    const waiting = gw('GET', `/v1/gateway/payment/${id}/status?maxPollMs=10000`);
    await new Promise((r) => setTimeout(r, 200));
    await confirm(id, opt.id, sig);
    const r = await waiting;
    expect(r.body.status).not.toBe('requires_action');
    expect(Date.now() - started).toBeLessThan(5000);
  });
  it('Idempotency-Key on confirm replays the first answer for the same caller', async () => {
    const id = await newPayment();
    const opt = await firstOption(id);
    const body = { optionId: opt.id, results: [{ type: 'walletRpc', data: [await signAction(opt)] }] };
    const key = uniqueKey('confirm');
    const a = await gw('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=5000`, { body, headers: { 'Idempotency-Key': key } });
    const b = await gw('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=5000`, { body, headers: { 'Idempotency-Key': key } });
    expect(a.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    await untilFinal(id);
  });
});
