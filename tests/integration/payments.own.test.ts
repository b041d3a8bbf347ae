import { eventually } from '../support/eventually';
import { create, m, newPayment, svc, usd, usePaymentsSuite } from '../support/paymentsSuite';
import { scrapedValue } from '../support/prometheus';
import { client, newAccount } from '../support/service';

usePaymentsSuite();
describe('GET /v1/payments/{id} and /status', () => {
  it('reads arriving together (one statement, src/db/coalesce.ts) each get their own payment and answer', async () => {
    const ids = [
      await newPayment({ amount: usd('1001') }),
      await newPayment({ amount: usd('1002') }),
      await newPayment({ amount: usd('1003') }),
    ];
    expect((await m.asMerchant('POST', `/v1/payments/${ids[2]}/cancel`)).status).toBe(200);
    const intruder = client(svc.url, { 'Api-Key': (await newAccount('Reader')).apiKey, 'Merchant-Id': m.merchantId });
    const asks = Array.from({ length: 45 }, (_, i) => i % 5);
    const waiting = () => scrapedValue(svc.directUrl, 'paygate_payment_reads_waiting');
    // With the assets table locked (the read joins it; the metrics scraped meanwhile do not read it), the first two
    // reads take both statements of reads and wait; the rest wait for them, and go together once the lock is let go.
    const trx = await svc.db.transaction();
    let answers: Awaited<ReturnType<typeof create>>[];
    try {
      await trx.raw('LOCK TABLE assets IN ACCESS EXCLUSIVE MODE');
      const sent = Promise.all(
        asks.map((k) =>
          k < 3
            ? m.asMerchant('GET', `/v1/payments/${ids[k]}`)
            : k === 3
              ? intruder('GET', `/v1/payments/${ids[0]}`)
              : m.asMerchant('GET', '/v1/payments/pay_unknown'),
        ),
      );
      expect(await eventually(waiting, (n) => n >= asks.length - 2, 10_000)).toBeGreaterThanOrEqual(asks.length - 2);
      await trx.commit();
      answers = await sent;
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
    }
    const expected = (k: number) =>
      k < 3
        ? [200, ids[k], ['requires_action', 'requires_action', 'cancelled'][k], String(1001 + k)]
        : [k === 3 ? 403 : 404, undefined, undefined, undefined];
    expect(answers.map((r) => [r.status, r.body.paymentId, r.body.status, r.body.amount?.value])).toEqual(asks.map(expected));
  });
});
