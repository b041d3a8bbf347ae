import { m, newPayment, usePaymentsSuite } from '../support/paymentsSuite';
import { client, startTestService } from '../support/service';

usePaymentsSuite();

describe('long-poll status', () => {
  it('holds until the payment changes, including a change made by another process', async () => {
    const second = await startTestService(); // another service process on the same database
    try {
      const id = await newPayment();
      const t = Date.now();
      const poll = m.asMerchant('GET', `/v1/payments/${id}/status?maxPollMs=25000`);
      await new Promise((r) => setTimeout(r, 300));
      const cancel = await client(second.url, { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId })('POST', `/v1/payments/${id}/cancel`);
      expect(cancel.status).toBe(200);
      const r = await poll;
      expect(r.body).toMatchObject({ status: 'cancelled', isFinal: true });
      expect(Date.now() - t).toBeLessThan(20000); // woken, not timed out
    } finally {
      await second.close();
    }
  });
  it('graceful shutdown answers waiting long-polls instead of dropping them', async () => {
    const third = await startTestService();
    const id = await newPayment();
    const poll = client(third.url, { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId })(
      'GET',
      `/v1/payments/${id}/status?maxPollMs=25000`,
    );
    await new Promise((r) => setTimeout(r, 300));
    await third.close();
    const r = await poll;
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('requires_action');
  });
});
