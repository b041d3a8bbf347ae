// A webhook receiver in Koa (the example of docs/webhooks.md). Run it behind your HTTPS terminator; paygate only
// delivers to https URLs. Try it: PAYGATE_WEBHOOK_SECRET=whsec_… npx ts-node examples/webhook-receiver/koa.ts
import Koa from 'koa';
import getRawBody from 'raw-body';
import { verifyWebhook, WebhookVerificationError, type PaygateWebhookEvent } from '../../clients/typescript/src/webhooks';

/**
 * `secrets`: the endpoint's current secret (plus the previous one while you roll a rotation out).
 * `handle` must be idempotent: an event can arrive more than once (same `id`), and out of order — keep the
 * highest `data.payment.version` you have applied per payment and ignore anything older.
 */
export function createReceiver(secrets: string[], handle: (event: PaygateWebhookEvent) => Promise<void>): Koa {
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.method !== 'POST' || ctx.path !== '/hooks/paygate') {
      ctx.status = 404;
      return;
    }
    // The RAW body: no JSON body parser may run before this on this route (a re-serialised body does not verify).
    const raw = await getRawBody(ctx.req, { encoding: 'utf8', limit: '1mb' });
    let event: PaygateWebhookEvent;
    try {
      event = verifyWebhook(raw, ctx.headers as Record<string, string>, secrets);
    } catch (e) {
      if (!(e instanceof WebhookVerificationError)) throw e;
      ctx.status = 400;
      ctx.body = 'invalid signature';
      return;
    }
    await handle(event); // answer 2xx only once the event is safely stored; anything else is retried
    ctx.status = 204;
  });
  return app;
}

if (require.main === module) {
  const secret = process.env.PAYGATE_WEBHOOK_SECRET;
  if (!secret) throw new Error('set PAYGATE_WEBHOOK_SECRET');
  const seen = new Map<string, number>();
  createReceiver([secret], async (event) => {
    const p = event.data.payment;
    if ((seen.get(p.paymentId) ?? 0) >= p.version) return; // stale or duplicate
    seen.set(p.paymentId, p.version);
    console.log(`${event.type}: ${p.paymentId} is ${p.status} (version ${p.version})`);
  }).listen(Number(process.env.PORT ?? 4000));
}
