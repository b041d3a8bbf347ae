import { verifyWebhook } from '../../clients/typescript/src/webhooks';
import { admin } from '../support/service';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { DEVNET_USDC } from '../support/chain';
import { Received, startReceiver } from '../support/webhookReceiver';
import { HOSTED_TYPES, HostedEvent, HostedPaymentStore, parseHostedEvent } from '../support/hostedWebhookReceiver';
import { PREVIEW, endpoint, newPayment, partner, pay, svc, useWebhooksSuite } from '../support/webhooksSuite';
import { client } from '../support/service';

// Endpoints in the hosted service's payload format (payloadFormat 2026-05-18): real payments on the development
// chain reach a receiver written from the hosted field reference (tests/support/hostedWebhookReceiver.ts) in
// every one of that format's seven types, signed as ours are; our other types reach only endpoints in our format,
// whose bodies stay ours; and the version guard holds when deliveries arrive out of order.

useWebhooksSuite();

const HOSTED = '2026-05-18';
const hostedOf = (all: Received[], paymentId: string) =>
  all.map((r) => ({ r, e: parseHostedEvent(r.raw) })).filter((x) => x.e.data.payment_id === paymentId);
const typesOf = (all: Received[], paymentId: string): string[] =>
  hostedOf(all, paymentId)
    .map((x) => x.e.type)
    .sort();

async function hostedEndpoint(p: Awaited<ReturnType<typeof partner>>, url: string, enabledEvents: string[] = [...HOSTED_TYPES]) {
  const r = await p.hooks('POST', '/v1/webhook-endpoints', {
    body: { url, enabledEvents, payloadFormat: HOSTED },
    headers: { 'Idempotency-Key': uniqueKey() },
  });
  if (r.status !== 201) throw new Error(r.text);
  return r.body as { endpoint: any; secret: string };
}

describe('the hosted 2026-05-18 payload format', () => {
  it('is chosen per endpoint: ours by default, the hosted one on request, and only with types that format has', async () => {
    const p = await partner();
    const rx = await startReceiver();
    try {
      const ours = await endpoint(p, rx.url, ['payment.created']);
      expect(ours.endpoint.payloadFormat).toBe('paygate');
      const hosted = await hostedEndpoint(p, rx.url, ['payment.created', 'payment.settled']);
      expect(hosted.endpoint).toMatchObject({ payloadFormat: HOSTED, apiVersion: '2026-02-19.preview' });
      expect((await p.hooks('GET', `/v1/webhook-endpoints/${hosted.endpoint.id}`)).body.endpoint.payloadFormat).toBe(HOSTED);

      const post = (body: unknown) => p.hooks('POST', '/v1/webhook-endpoints', { body, headers: { 'Idempotency-Key': uniqueKey() } });
      const extra = await post({ url: rx.url, enabledEvents: ['payment.created', 'refund.created'], payloadFormat: HOSTED });
      expect({ status: extra.status, code: extra.body.code, field: extra.body.issues?.[0]?.field }).toEqual({
        status: 400,
        code: 'params_validation',
        field: '/enabledEvents',
      });
      const unknown = await post({ url: rx.url, enabledEvents: ['payment.created'], payloadFormat: '2026-02-19' });
      expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 400, code: 'params_validation' });

      // Switching an endpoint: its current types must suit the new format; both can change at once.
      const withRefunds = await endpoint(p, rx.url, ['payment.created', 'payment.refunded']);
      const refused = await p.hooks('PATCH', `/v1/webhook-endpoints/${withRefunds.endpoint.id}`, { body: { payloadFormat: HOSTED } });
      expect({ status: refused.status, code: refused.body.code, field: refused.body.issues?.[0]?.field }).toEqual({
        status: 400,
        code: 'params_validation',
        field: '/payloadFormat',
      });
      const switched = await p.hooks('PATCH', `/v1/webhook-endpoints/${withRefunds.endpoint.id}`, {
        body: { payloadFormat: HOSTED, enabledEvents: ['payment.created'] },
      });
      expect(switched.status).toBe(200);
      expect(switched.body.endpoint).toMatchObject({ payloadFormat: HOSTED, enabledEvents: ['payment.created'] });
      const back = await p.hooks('PATCH', `/v1/webhook-endpoints/${withRefunds.endpoint.id}`, { body: { payloadFormat: 'paygate' } });
      expect(back.body.endpoint.payloadFormat).toBe('paygate');
      const row = await svc.db('webhook_endpoints').where({ id: hosted.endpoint.id }).first();
      expect(row.payload_format).toBe(HOSTED);
    } finally {
      await rx.close();
    }
  });

  it('delivers the seven types of real payments to a receiver written from the hosted field reference, and ours only to ours', async () => {
    const p = await partner();
    // 0.10 USD plus 2.9 %: the fee the hosted payload spells out.
    await admin('accounts', 'set-fee', '--account', p.accountId, '--base-minor', '10', '--percent', '2.9');
    const hostedRx = await startReceiver();
    const oursRx = await startReceiver();
    try {
      const { secret } = await hostedEndpoint(p, hostedRx.url);
      const ours = await endpoint(p, oursRx.url, [...HOSTED_TYPES, 'payment.refunded', 'refund.created']);

      const paid = await newPayment(p);
      const gw = await pay(p, paid);
      await hostedRx.until((all) => typesOf(all, paid).includes('payment.settled'), 30_000);
      expect((await p.asMerchant('POST', '/v1/refunds', { body: { paymentId: paid } })).status).toBe(200);
      const cancelled = await newPayment(p);
      expect((await p.asMerchant('POST', `/v1/payments/${cancelled}/cancel`)).status).toBe(200);
      const declined = await newPayment(p);
      expect((await gw('POST', `/v1/gateway/payment/${declined}/decline`)).status).toBe(200);
      const expiring = await newPayment(p, { expiresAt: Math.floor(Date.now() / 1000) + 2 });

      const expected: [string, string[]][] = [
        [paid, ['payment.created', 'payment.processing', 'payment.settled', 'payment.succeeded']],
        [cancelled, ['payment.cancelled', 'payment.created']],
        [declined, ['payment.created', 'payment.failed']],
        [expiring, ['payment.created', 'payment.expired']],
      ];
      for (const [id, types] of expected) await hostedRx.until((all) => types.every((t) => typesOf(all, id).includes(t)), 20_000);
      await oursRx.until((all) => all.some((r) => r.body?.type === 'payment.refunded' && r.body.data.payment.paymentId === paid), 30_000);
      await new Promise((r) => setTimeout(r, 800)); // any stray delivery would have come by now

      // Every body parses under the hosted reference, is signed as ours are (Standard Webhooks, same secret
      // scheme) and names the event in webhook-id; no other type arrived.
      for (const [id, types] of expected) expect(typesOf(hostedRx.received, id)).toEqual(types);
      for (const r of hostedRx.received) {
        const e = parseHostedEvent(r.raw);
        expect(r.headers['webhook-id']).toBe(e.id);
        expect(verifyWebhook(r.raw, r.headers, secret)).toEqual(JSON.parse(r.raw));
        expect(e.data).toMatchObject({ merchant_id: p.merchantId, live: true, amount: { unit: 'iso4217/USD', value: '1500' } });
      }

      // The same events as ours, by id: payment_state_version is our payment version.
      const oursById = new Map(oursRx.received.map((r) => [r.body.id as string, r.body]));
      for (const r of hostedRx.received) {
        const e = parseHostedEvent(r.raw);
        expect(oursById.get(e.id)).toMatchObject({ type: e.type, data: { payment: { version: e.data.payment_state_version } } });
      }
      // Refunds are ours only: they reached our endpoint, never the hosted one.
      expect(oursRx.received.filter((r) => r.body.data.payment.paymentId === paid).map((r) => r.body.type)).toEqual(
        expect.arrayContaining(['payment.refunded', 'refund.created']),
      );

      const byType = (id: string) => new Map(hostedOf(hostedRx.received, id).map((x) => [x.e.type, x.e] as [string, HostedEvent]));
      const life = byType(paid);
      const row = await svc.db('payments').where({ id: paid }).first();
      const unit = `caip19/${DEVNET_USDC}`;
      const processing = {
        option_amount: { unit, value: '15000000' },
        fee: {
          kind: 'base_plus_percent',
          base_amount: { unit, value: '100000' },
          percent: { numerator: '290', denominator: '10000' },
          percent_amount: { unit, value: '435000' },
          total_amount: { unit, value: '535000' },
        },
        settlement_amount: { unit, value: '14465000' },
        buyer_caip10: row.buyer_account,
        chain_caip2: 'eip155:31337',
      };
      expect(row.buyer_account).toMatch(/^eip155:31337:0x[0-9a-fA-F]{40}$/);
      expect(life.get('payment.created')!.data).toMatchObject({ status: 'requires_action', processing: null, payment_state_version: 1 });
      expect(life.get('payment.processing')!.data).toMatchObject({ status: 'processing', processing, success: null });
      const txId = oursById.get(life.get('payment.succeeded')!.id).data.payment.txId;
      expect(txId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(life.get('payment.succeeded')!.data).toMatchObject({
        status: 'succeeded',
        processing,
        success: { tx_id: txId },
        settled: null,
      });
      const settled = life.get('payment.settled')!.data;
      expect(settled).toMatchObject({ status: 'succeeded', processing, success: { tx_id: txId } });
      // What reached the merchant: the settlement transfer's amount and transaction, as the payment API shows them.
      const details = await p.asMerchant('GET', `/v1/payments/${paid}`);
      expect(details.body.settlement.successful).toMatchObject({ amount: { unit, value: '14465000' }, txId: settled.settled!.tx_id });
      expect(settled.settled).toMatchObject({ amount: { unit, value: '14465000' } });
      // Each stage's time is when the payment reached it: the times of its events.
      expect(settled.processing!.processing_at).toBe(life.get('payment.processing')!.created_at);
      expect(settled.success!.succeeded_at).toBe(life.get('payment.succeeded')!.created_at);
      expect(settled.settled!.settled_at).toBe(life.get('payment.settled')!.created_at);

      expect(byType(cancelled).get('payment.cancelled')!.data).toMatchObject({
        status: 'cancelled',
        processing: null,
        cancelled: { cancelled_at: byType(cancelled).get('payment.cancelled')!.created_at },
      });
      expect(byType(declined).get('payment.failed')!.data).toMatchObject({ status: 'failed', processing: null, success: null });
      expect(byType(expiring).get('payment.expired')!.data).toMatchObject({ status: 'expired', processing: null, success: null });

      // Our endpoint's bodies are ours, exactly as the events API shows them.
      const listed = await p.hooks('GET', `/v1/events?paymentId=${paid}`);
      const sent = oursRx.received.find((r) => r.body.type === 'payment.settled' && r.body.data.payment.paymentId === paid)!;
      expect(JSON.stringify(listed.body.events.find((e: any) => e.id === sent.body.id))).toBe(sent.raw);
      expect(ours.endpoint.payloadFormat).toBe('paygate');
    } finally {
      await hostedRx.close();
      await oursRx.close();
    }
  });

  it('keeps the newest state when older deliveries arrive later (redelivered newest first)', async () => {
    const p = await partner();
    const first = await startReceiver();
    const late = await startReceiver();
    try {
      await hostedEndpoint(p, first.url);
      const paid = await newPayment(p);
      await pay(p, paid);
      await first.until((all) => typesOf(all, paid).includes('payment.settled'), 30_000);
      const { endpoint: ep } = await hostedEndpoint(p, late.url);
      const events = hostedOf(first.received, paid)
        .map((x) => x.e)
        .sort((a, b) => b.data.payment_state_version - a.data.payment_state_version);
      expect(events.map((e) => e.type)).toEqual(['payment.settled', 'payment.succeeded', 'payment.processing', 'payment.created']);
      // Each one sent again to the second endpoint only once the one before arrived: newest first.
      for (const [n, e] of events.entries()) {
        const r = await p.hooks('POST', `/v1/events/${e.id}/redeliver`, { body: { endpointId: ep.id } });
        expect(r.status).toBe(202);
        await late.until((all) => all.length >= n + 1);
      }
      const store = new HostedPaymentStore();
      const outcomes = late.received.map((r) => [parseHostedEvent(r.raw).type, store.apply(parseHostedEvent(r.raw))]);
      expect(outcomes).toEqual([
        ['payment.settled', 'applied'],
        ['payment.succeeded', 'stale'],
        ['payment.processing', 'stale'],
        ['payment.created', 'stale'],
      ]);
      expect(store.payments.get(paid)).toMatchObject({ status: 'succeeded', payment_state_version: events[0].data.payment_state_version });
      expect(store.payments.get(paid)!.settled).not.toBeNull();
      // The same event again is a duplicate by id, and its body is the same bytes (same webhook-id).
      const again = await p.hooks('POST', `/v1/events/${events[2].id}/redeliver`, { body: { endpointId: ep.id } });
      expect(again.status).toBe(202);
      await late.until((all) => all.length >= 5);
      expect(store.apply(parseHostedEvent(late.received[4].raw))).toBe('duplicate');
      expect(late.received[4].raw).toBe(late.received[2].raw);
      expect(late.received[4].headers['webhook-id']).toBe(events[2].id);
    } finally {
      await first.close();
      await late.close();
    }
  });

  it('sends only its types: a refund redelivered to a hosted endpoint is refused, and test mode says live false', async () => {
    const p = await partner();
    const rx = await startReceiver();
    try {
      const { endpoint: ep } = await hostedEndpoint(p, rx.url, ['payment.created']);
      await endpoint(p, rx.url, ['payment.settled', 'payment.refunded']);
      const paid = await newPayment(p);
      await pay(p, paid);
      await rx.until((all) => all.some((x) => x.body?.type === 'payment.settled' && x.body.data.payment?.paymentId === paid), 30_000);
      expect((await p.asMerchant('POST', '/v1/refunds', { body: { paymentId: paid } })).status).toBe(200);
      const refunded = await eventually(
        async () => (await p.hooks('GET', `/v1/events?paymentId=${paid}&type=payment.refunded`)).body.events,
        (e: any[]) => e.length === 1,
        30_000,
      );
      const r = await p.hooks('POST', `/v1/events/${refunded[0].id}/redeliver`, { body: { endpointId: ep.id } });
      expect({ status: r.status, code: r.body.code, field: r.body.issues?.[0]?.field }).toEqual({
        status: 400,
        code: 'params_validation',
        field: '/endpointId',
      });

      const test = await merchantWithSettlement(svc, 'Hosted test shop', 'test');
      const hooks = client(svc.directUrl, { 'Api-Key': test.apiKey, ...PREVIEW });
      const made = await hooks('POST', '/v1/webhook-endpoints', {
        body: { url: rx.url, enabledEvents: ['payment.created', 'payment.cancelled'], payloadFormat: HOSTED },
        headers: { 'Idempotency-Key': uniqueKey() },
      });
      expect(made.status).toBe(201);
      const asMerchant = client(svc.directUrl, { 'Api-Key': test.apiKey, 'Merchant-Id': test.merchantId, ...PREVIEW });
      const pr = await asMerchant('POST', '/v1/payments', {
        body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '100' } },
      });
      expect(pr.status).toBe(201);
      expect((await asMerchant('POST', `/v1/payments/${pr.body.paymentId}/cancel`)).status).toBe(200);
      const got = await rx.until((all) => all.filter((x) => x.body?.data?.payment_id === pr.body.paymentId).length >= 2);
      const mine = got.filter((x) => x.body?.data?.payment_id === pr.body.paymentId).map((x) => parseHostedEvent(x.raw));
      expect(mine.map((e) => [e.type, e.data.live]).sort()).toEqual([
        ['payment.cancelled', false],
        ['payment.created', false],
      ]);
      // The hosted endpoint of the live account got its payment.created only.
      expect(got.filter((x) => x.body?.data?.payment_id === paid).map((x) => x.body.type)).toEqual(['payment.created']);
    } finally {
      await rx.close();
    }
  });
});
