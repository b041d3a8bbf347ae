import { verifyWebhook, WebhookVerificationError } from '../../clients/typescript/src/webhooks';
import { startReceiver } from '../support/webhookReceiver';
import { parseExposition, sampleValue } from '../support/prometheus';
import { eventually } from '../support/eventually';
import { endpoint, forPayment, hasTypes, newPayment, partner, rx, svc, useWebhooksSuite } from '../support/webhooksSuite';

useWebhooksSuite();

describe('delivery: retries, timeouts, secret rotation, redelivery, event lists', () => {
  it('retries with backoff until a failing receiver answers 2xx, and records every attempt', async () => {
    const p = await partner();
    const flaky = await startReceiver();
    try {
      let failures = 0;
      flaky.respond = () => (failures++ < 3 ? 503 : 200);
      await endpoint(p, flaky.url, ['payment.cancelled']);
      const id = await newPayment(p);
      await p.asMerchant('POST', `/v1/payments/${id}/cancel`);
      const all = await flaky.until((a) => a.length >= 4);
      expect(new Set(all.map((r) => r.headers['webhook-id'])).size).toBe(1); // the same event each time
      const eventId = all[0].headers['webhook-id'];
      const attempts = await eventually(
        async () => (await p.hooks('GET', `/v1/events/${eventId}/attempts`)).body,
        (b) => b.deliveries[0]?.status === 'succeeded',
        2000,
      );
      // Backoff (200 ms base, half of it at least), judged on when the service started each attempt: arrival
      // times at the receiver also carry the load of a shared machine (an attempt can arrive right behind a late one).
      const started = attempts.attempts.map((a: any) => Date.parse(a.attemptedAt));
      const gaps = started.slice(1).map((t: number, i: number) => t - started[i]);
      expect(gaps.every((g: number) => g >= 90)).toBe(true);
      expect(attempts.deliveries).toMatchObject([{ status: 'succeeded', attempts: 4 }]);
      expect(attempts.attempts.map((a: any) => [a.responseStatus, a.succeeded])).toEqual([
        [503, false],
        [503, false],
        [503, false],
        [200, true],
      ]);
      expect(attempts.attempts[0].error).toBe('HTTP 503');
    } finally {
      await flaky.close();
    }
  });

  it('gives up on a receiver that does not answer within the timeout, and tries again', async () => {
    const p = await partner();
    const slow = await startReceiver();
    try {
      slow.respond = (_r, nth) => (nth === 1 ? 'hang' : 200); // WEBHOOK_TIMEOUT_MS is 3000 in the test services
      await endpoint(p, slow.url, ['payment.created']);
      await newPayment(p);
      const all = await slow.until((got) => got.length >= 2, 20000);
      expect(all[1].at - all[0].at).toBeGreaterThanOrEqual(3000);
      const eventId = all[0].headers['webhook-id'];
      const attempts: any[] = await eventually(
        async () => (await p.hooks('GET', `/v1/events/${eventId}/attempts`)).body.attempts,
        (a) => a.length >= 2,
        2000,
      );
      expect(attempts.map((a) => [a.responseStatus, a.error, a.succeeded])).toEqual([
        [null, 'timeout after 3000 ms', false],
        [200, null, true],
      ]);
      expect(attempts[0].durationMs).toBeGreaterThanOrEqual(3000);
    } finally {
      await slow.close();
    }
  });

  it('counts pending deliveries in the /metrics webhook backlog', async () => {
    const p = await partner();
    const stuck = await startReceiver();
    try {
      stuck.respond = () => 503;
      await endpoint(p, stuck.url, ['payment.created']);
      await newPayment(p);
      await stuck.until((all) => all.length >= 1);
      const pending = Number((await svc.db('webhook_deliveries').where({ status: 'pending' }).count('* as n'))[0].n);
      expect(pending).toBeGreaterThanOrEqual(1);
      const scrape = await fetch(`${svc.directUrl}/metrics`);
      const backlog = sampleValue(parseExposition(await scrape.text()), 'paygate_webhook_delivery_backlog');
      expect(backlog).toBeGreaterThanOrEqual(1);
    } finally {
      await stuck.close();
    }
  });

  it('rotates the secret: during the overlap each delivery is signed with both, then with the new one only', async () => {
    const p = await partner();
    const { endpoint: ep, secret: oldSecret } = await endpoint(p, rx.url, ['payment.cancelled']);
    const rotated = await p.hooks('POST', `/v1/webhook-endpoints/${ep.id}/rotate-secret`, { body: { overlapSeconds: 3600 } });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.secret;
    expect(newSecret).not.toBe(oldSecret);
    expect(Date.parse(rotated.body.endpoint.previousSecretExpiresAt)).toBeGreaterThan(Date.now() + 3500_000);

    const a = await newPayment(p);
    await p.asMerchant('POST', `/v1/payments/${a}/cancel`);
    const [during] = forPayment(await rx.until(hasTypes(a, ['payment.cancelled'])), a);
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyWebhook(during.raw, during.headers, oldSecret).id).toBe(during.body.id);
    expect(verifyWebhook(during.raw, during.headers, newSecret).id).toBe(during.body.id);

    const ended = await p.hooks('POST', `/v1/webhook-endpoints/${ep.id}/rotate-secret`, { body: { overlapSeconds: 0 } });
    const newest = ended.body.secret;
    expect(ended.body.endpoint.previousSecretExpiresAt).toBeNull();
    const b = await newPayment(p);
    await p.asMerchant('POST', `/v1/payments/${b}/cancel`);
    const [after] = forPayment(await rx.until(hasTypes(b, ['payment.cancelled'])), b);
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verifyWebhook(after.raw, after.headers, newest).id).toBe(after.body.id);
    expect(() => verifyWebhook(after.raw, after.headers, newSecret)).toThrow(WebhookVerificationError);
  });

  it('two rotations at once leave both returned secrets valid (one current, one previous)', async () => {
    const p = await partner();
    const { endpoint: ep } = await endpoint(p, rx.url, ['payment.cancelled']);
    const [a, b] = await Promise.all(
      [1, 2].map(() => p.hooks('POST', `/v1/webhook-endpoints/${ep.id}/rotate-secret`, { body: { overlapSeconds: 600 } })),
    );
    expect([a.status, b.status]).toEqual([200, 200]);
    const id = await newPayment(p);
    await p.asMerchant('POST', `/v1/payments/${id}/cancel`);
    const [got] = forPayment(await rx.until(hasTypes(id, ['payment.cancelled'])), id);
    expect(verifyWebhook(got.raw, got.headers, a.body.secret).id).toBe(got.body.id);
    expect(verifyWebhook(got.raw, got.headers, b.body.secret).id).toBe(got.body.id);
  });

  it('redelivers an event with the same id; a receiver ordering by version drops the stale copy', async () => {
    const p = await partner();
    const ordered = await startReceiver();
    try {
      const { endpoint: ep, secret } = await endpoint(p, ordered.url, ['payment.created', 'payment.cancelled']);
      const id = await newPayment(p);
      await p.asMerchant('POST', `/v1/payments/${id}/cancel`);
      await ordered.until(hasTypes(id, ['payment.created', 'payment.cancelled']));
      const created = ordered.received.find((r) => r.body.type === 'payment.created')!;

      const again = await p.hooks('POST', `/v1/events/${created.body.id}/redeliver`, { body: { endpointId: ep.id } });
      expect(again.status).toBe(202);
      expect(again.body.deliveries).toMatchObject([{ endpointId: ep.id, status: 'pending', redelivery: true, attempts: 0 }]);
      await ordered.until((all) => all.length >= 3);
      const copy = ordered.received[2];
      expect(copy.headers['webhook-id']).toBe(created.body.id);
      expect(copy.raw).toBe(created.raw);
      expect(verifyWebhook(copy.raw, copy.headers, secret).type).toBe('payment.created');

      // What a receiver does with `version`: keep the highest it has seen; the late copy changes nothing.
      const latest = new Map<string, any>();
      for (const r of ordered.received) {
        const snap = r.body.data.payment;
        if ((latest.get(snap.paymentId)?.version ?? 0) < snap.version) latest.set(snap.paymentId, snap);
      }
      expect(latest.get(id)).toMatchObject({ status: 'cancelled', version: 2 });

      // The receiver has the copy; its attempt is recorded just after its answer (successes are recorded in batches).
      const deliveries = await eventually(
        async () => (await p.hooks('GET', `/v1/events/${created.body.id}/attempts`)).body.deliveries,
        (ds: any[]) => ds.every((d) => d.status !== 'pending'),
        10_000,
        100,
      );
      expect(deliveries.map((d: any) => [d.redelivery, d.status])).toEqual([
        [false, 'succeeded'],
        [true, 'succeeded'],
      ]);

      // To every subscribed endpoint when none is named; refused when the endpoint is disabled.
      expect((await p.hooks('POST', `/v1/events/${created.body.id}/redeliver`, { body: {} })).status).toBe(202);
      await p.hooks('PATCH', `/v1/webhook-endpoints/${ep.id}`, { body: { status: 'disabled' } });
      const refused = await p.hooks('POST', `/v1/events/${created.body.id}/redeliver`, { body: { endpointId: ep.id } });
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 409, code: 'webhook_endpoint_disabled' });
      const none = await p.hooks('POST', `/v1/events/${created.body.id}/redeliver`, { body: {} });
      expect({ status: none.status, code: none.body.code }).toEqual({ status: 409, code: 'no_webhook_endpoint' });
      const missing = await p.hooks('GET', '/v1/events/evt_doesNotExist0000000000');
      expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 404, code: 'event_not_found' });
    } finally {
      await ordered.close();
    }
  });

  it('lists events newest first with a stable cursor and filters', async () => {
    const p = await partner();
    const ids = [await newPayment(p), await newPayment(p), await newPayment(p)];
    await p.asMerchant('POST', `/v1/payments/${ids[0]}/cancel`);
    const page1 = await p.hooks('GET', '/v1/events?limit=2');
    expect(page1.status).toBe(200);
    expect(page1.body.events).toHaveLength(2);
    expect(page1.body.events[0].type).toBe('payment.cancelled');
    const page2 = await p.hooks('GET', `/v1/events?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.events).toHaveLength(2);
    expect(page2.body.nextCursor).toBeNull();
    const seen = [...page1.body.events, ...page2.body.events].map((e: any) => e.id);
    expect(new Set(seen).size).toBe(4);
    const cancelledOnly = await p.hooks('GET', '/v1/events?type=payment.cancelled');
    expect(cancelledOnly.body.events.map((e: any) => e.data.payment.paymentId)).toEqual([ids[0]]);
    const edited = (createdAt: string) => Buffer.from(JSON.stringify({ createdAt, id: 'evt_abc' })).toString('base64url');
    for (const cursor of ['bm90LWEtY3Vyc29y', edited('12'), edited('+275760-09-13T00:00:00.000Z'), edited('2026-01-01')]) {
      const bad = await p.hooks('GET', `/v1/events?cursor=${cursor}`);
      expect({ cursor, status: bad.status, code: bad.body.code }).toEqual({ cursor, status: 400, code: 'params_validation' });
    }
  });
});
