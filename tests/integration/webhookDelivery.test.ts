import { verifyWebhook } from '../../clients/typescript/src/webhooks';
import { startReceiver } from '../support/webhookReceiver';
import { eventually } from '../support/eventually';
import { DEVNET_USDC } from '../support/chain';
import { endpoint, forPayment, hasTypes, newPayment, partner, pay, rx, svc, useWebhooksSuite } from '../support/webhooksSuite';

useWebhooksSuite();

describe('delivery', () => {
  it('delivers every event type a payment goes through, signed, with the payment snapshot and its version', async () => {
    const p = await partner();
    const { secret } = await endpoint(p, rx.url);

    const paid = await newPayment(p);
    const gw = await pay(p, paid);
    // Paid on chain, then settled to the merchant's wallet: both arrive before the refund is recorded.
    await rx.until(hasTypes(paid, ['payment.succeeded', 'payment.settled']));
    expect((await p.asMerchant('POST', '/v1/refunds', { body: { paymentId: paid } })).status).toBe(200);
    const cancelled = await newPayment(p);
    await p.asMerchant('POST', `/v1/payments/${cancelled}/cancel`);
    const declined = await newPayment(p);
    expect((await gw('POST', `/v1/gateway/payment/${declined}/decline`)).status).toBe(200);
    const expiring = await newPayment(p, { expiresAt: Math.floor(Date.now() / 1000) + 2 });

    await rx.until(hasTypes(paid, ['payment.created', 'payment.processing', 'payment.succeeded', 'payment.settled', 'payment.refunded']));
    await rx.until(hasTypes(cancelled, ['payment.created', 'payment.cancelled']));
    await rx.until(hasTypes(declined, ['payment.created', 'payment.failed']));
    await rx.until(hasTypes(expiring, ['payment.created', 'payment.expired']), 15000);

    const mine = rx.received.filter((r) => [paid, cancelled, declined, expiring].includes(r.body?.data?.payment?.paymentId));
    for (const r of mine) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['webhook-id']).toBe(r.body.id);
      const event = verifyWebhook(r.raw, r.headers, secret);
      expect(event).toMatchObject({ apiVersion: '2026-02-19.preview', data: { payment: { merchantId: p.merchantId } } });
      expect(Number.isNaN(Date.parse(event.createdAt))).toBe(false);
    }
    // Each payment's events carry versions 1..n in the order of its changes, with a matching snapshot. Version 5 is the
    // refund's refund.created, a type this endpoint does not subscribe to: a subscriber sees the gap.
    const versions = (id: string) =>
      forPayment(mine, id)
        .map((r) => [r.body.data.payment.version, r.body.type, r.body.data.payment.status])
        .sort((a, b) => a[0] - b[0]);
    expect(versions(paid)).toEqual([
      [1, 'payment.created', 'requires_action'],
      [2, 'payment.processing', 'processing'],
      [3, 'payment.succeeded', 'succeeded'],
      [4, 'payment.settled', 'succeeded'],
      [6, 'payment.refunded', 'succeeded'],
    ]);
    expect(versions(cancelled)).toEqual([
      [1, 'payment.created', 'requires_action'],
      [2, 'payment.cancelled', 'cancelled'],
    ]);
    expect(versions(declined)).toEqual([
      [1, 'payment.created', 'requires_action'],
      [2, 'payment.failed', 'failed'],
    ]);
    expect(versions(expiring)).toEqual([
      [1, 'payment.created', 'requires_action'],
      [2, 'payment.expired', 'expired'],
    ]);
    expect(forPayment(mine, paid).find((r) => r.body.type === 'payment.refunded')!.body.data.payment.refundedAt).not.toBeNull();
    // payment.settled happened after payment.succeeded: the merchant's share was transferred on chain.
    // Deliveries run concurrently, so their arrival order is not promised; the events' own times are.
    const succeeded = forPayment(mine, paid).find((r) => r.body.type === 'payment.succeeded')!;
    const settled = forPayment(mine, paid).find((r) => r.body.type === 'payment.settled')!;
    expect(Date.parse(settled.body.createdAt)).toBeGreaterThanOrEqual(Date.parse(succeeded.body.createdAt));
    expect(settled.body.data.payment).toMatchObject({
      status: 'succeeded',
      isFinal: true,
      tokenAmount: { unit: `caip19/${DEVNET_USDC}`, value: '15000000' },
      txId: succeeded.body.data.payment.txId,
    });
    const details = await p.asMerchant('GET', `/v1/payments/${paid}`);
    expect(details.body.settlement).toMatchObject({
      successful: { amount: { unit: `caip19/${DEVNET_USDC}`, value: '15000000' }, txId: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
    });

    // The events API shows the same bodies, and each delivery succeeded on its first attempt.
    const listed = await p.hooks('GET', `/v1/events?paymentId=${paid}`);
    // (refund.created and payment.refunded are written in one transaction, at one time: their order is the ids'.)
    expect(listed.body.events.map((e: any) => e.data.payment.version).sort((a: number, b: number) => b - a)).toEqual([6, 5, 4, 3, 2, 1]);
    const sent = forPayment(mine, paid).find((r) => r.body.type === 'payment.succeeded')!;
    expect(JSON.stringify(listed.body.events.find((e: any) => e.type === 'payment.succeeded'))).toBe(sent.raw);
    // (Recorded just after the receiver's answer: successes are recorded in batches.)
    const attempts = await eventually(
      async () => (await p.hooks('GET', `/v1/events/${sent.body.id}/attempts`)).body,
      (b: any) => b.deliveries.every((d: any) => d.status !== 'pending'),
      10_000,
      100,
    );
    expect(attempts.deliveries).toMatchObject([{ status: 'succeeded', attempts: 1, redelivery: false, nextAttemptAt: null }]);
    expect(attempts.attempts).toMatchObject([{ responseStatus: 200, succeeded: true, error: null }]);
  });

  it('a burst of events to two endpoints: every delivery arrives once and each records its one successful attempt', async () => {
    // Attempts that end together are recorded together (src/jobs/webhooks/recorder.ts): each still gets its own
    // attempt row and its delivery's state, and an endpoint's failure run ends.
    const p = await partner();
    const one = await startReceiver();
    const two = await startReceiver();
    try {
      const { endpoint: first } = await endpoint(p, one.url, ['payment.created']);
      await endpoint(p, two.url, ['payment.created']);
      await svc.db('webhook_endpoints').where({ id: first.id }).update({ failing_since: new Date(), last_failed_at: new Date() });
      const ids = await Promise.all(Array.from({ length: 24 }, () => newPayment(p)));
      for (const rx of [one, two]) await rx.until((all) => ids.every((id) => forPayment(all, id).length >= 1));
      for (const rx of [one, two]) expect(ids.map((id) => forPayment(rx.received, id).length)).toEqual(ids.map(() => 1));
      for (const r of one.received.filter((x) => ids.includes(x.body.data.payment.paymentId)).slice(0, 6)) {
        const a = await eventually(
          async () => (await p.hooks('GET', `/v1/events/${r.body.id}/attempts`)).body,
          (b: any) => b.deliveries.every((d: any) => d.status === 'succeeded'),
          10_000,
          100,
        );
        expect(a.deliveries).toMatchObject([
          { status: 'succeeded', attempts: 1 },
          { status: 'succeeded', attempts: 1 },
        ]);
        expect(a.attempts).toHaveLength(2);
        expect(a.attempts.every((x: any) => x.succeeded && x.responseStatus === 200 && x.error === null)).toBe(true);
      }
      const ep = await svc.db('webhook_endpoints').where({ id: first.id }).first();
      expect({ failing_since: ep.failing_since, last_failed_at: ep.last_failed_at }).toEqual({ failing_since: null, last_failed_at: null });
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('sends only the subscribed types, and nothing to a disabled endpoint', async () => {
    const p = await partner();
    const only = await startReceiver();
    const off = await startReceiver();
    try {
      await endpoint(p, only.url, ['payment.cancelled']);
      const { endpoint: disabled } = await endpoint(p, off.url);
      await p.hooks('PATCH', `/v1/webhook-endpoints/${disabled.id}`, { body: { status: 'disabled' } });
      const id = await newPayment(p);
      await p.asMerchant('POST', `/v1/payments/${id}/cancel`);
      await only.until((all) => all.length >= 1);
      await new Promise((r) => setTimeout(r, 800)); // any stray delivery would have come by now
      expect(only.received.map((r) => r.body.type)).toEqual(['payment.cancelled']);
      expect(off.received).toEqual([]);
      const ep = await p.hooks('GET', `/v1/webhook-endpoints/${disabled.id}`);
      expect(ep.body.endpoint).toMatchObject({ status: 'disabled', disabledReason: 'disabled by the partner' });
    } finally {
      await only.close();
      await off.close();
    }
  });
});
