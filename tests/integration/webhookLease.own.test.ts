import { createDb } from '../../src/db/knex';
import * as repo from '../../src/db/webhooks';
import type { PaymentEvent } from '../../src/domain/paymentEvent';
import type { WebhookDelivery } from '../../src/domain/webhook';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, startTestService, TestService } from '../support/service';

// The delivery lease and the endpoint's failure run, on real PostgreSQL with no worker running: a service
// makes the data and is closed first, so only this test touches the delivery rows. (Skipped under the
// contract gate, whose service keeps working the same tables.)

describe('webhook delivery lease and failure run', () => {
  const db = createDb(process.env.DATABASE_URL!, 4);
  let delivery: WebhookDelivery;
  let endpointId: string;

  beforeAll(async () => {
    const svc: TestService = await startTestService();
    try {
      const m = await merchantWithSettlement(svc, 'Lease');
      const hooks = client(svc.directUrl, { 'Api-Key': m.apiKey, 'PAY-Version': '2026-02-19.preview' });
      // Disabled while the service runs, so that its workers leave the endpoint alone.
      const ep = (
        await hooks('POST', '/v1/webhook-endpoints', {
          body: { url: 'https://hooks.partner.example/x', enabledEvents: ['payment.created'] },
          headers: { 'Idempotency-Key': uniqueKey() },
        })
      ).body.endpoint;
      await hooks('PATCH', `/v1/webhook-endpoints/${ep.id}`, { body: { status: 'disabled' } });
      endpointId = ep.id;
      await m.asMerchant('POST', '/v1/payments', { body: { referenceId: 'lease', amount: { unit: 'iso4217/USD', value: '100' } } });
    } finally {
      await svc.close();
    }
    const row = await db('payment_events')
      .where({ account_id: (await db('webhook_endpoints').where({ id: endpointId }).first()).account_id })
      .first();
    const event = (await repo.findEvent(db, row.id))!;
    await db('webhook_endpoints').where({ id: endpointId }).update({ status: 'enabled', disabled_reason: null, disabled_at: null });
    [delivery] = await repo.insertRedeliveries(db, event, [endpointId]);
  }, 60_000); // starts a service (and the admin command): slow on a busy machine
  afterAll(() => db.destroy());

  const outcome = (leaseToken: string, succeeded: boolean, at = new Date()) => ({
    leaseToken,
    attemptId: `wha_${uniqueKey().replace(/[^A-Za-z0-9]/g, '')}`,
    attemptedAt: at,
    durationMs: 5,
    responseStatus: succeeded ? 200 : 503,
    error: succeeded ? null : 'HTTP 503',
    succeeded,
    nextAttemptAt: succeeded ? null : new Date(Date.now() + 60_000),
  });
  const policy = { disableAfterMs: 60_000, streakGapMs: 3_600_000 };

  it('a worker that outlived its lease cannot overwrite the state of the worker that took the delivery over', async () => {
    const a = await repo.claimDelivery(db, delivery.id, 60_000, 'token-a');
    expect(a?.delivery.id).toBe(delivery.id);
    expect(await repo.claimDelivery(db, delivery.id, 60_000, 'token-b')).toBeUndefined(); // held
    await db('webhook_deliveries')
      .where({ id: delivery.id })
      .update({ locked_until: new Date(Date.now() - 1000) }); // A's lease ran out
    const b = await repo.claimDelivery(db, delivery.id, 60_000, 'token-b');
    expect(b?.delivery.id).toBe(delivery.id);

    await repo.recordAttempt(db, a!.delivery, outcome('token-a', false), policy); // A's late failure
    let row = await db('webhook_deliveries').where({ id: delivery.id }).first();
    expect(row).toMatchObject({ status: 'pending', attempts: 0, lease_token: 'token-b' }); // untouched: B holds it
    await repo.cancelDelivery(db, delivery.id, 'token-a');
    expect((await db('webhook_deliveries').where({ id: delivery.id }).first()).status).toBe('pending');

    await repo.recordAttempt(db, b!.delivery, outcome('token-b', true), policy);
    row = await db('webhook_deliveries').where({ id: delivery.id }).first();
    expect(row).toMatchObject({ status: 'succeeded', attempts: 1, lease_token: null, locked_until: null });
    // Both requests were made, so both attempts are history.
    expect(await db('webhook_attempts').where({ delivery_id: delivery.id }).count('* as n')).toEqual([{ n: '2' }]);
  });

  it('a failure after a quiet period starts a new failure run instead of disabling the endpoint', async () => {
    const fail = async () => {
      const [d] = await repo.insertRedeliveries(db, { id: delivery.eventId, accountId: delivery.accountId } as PaymentEvent, [endpointId]);
      const c = await repo.claimDelivery(db, d.id, 60_000, `t-${d.id}`);
      return repo.recordAttempt(db, c!.delivery, outcome(`t-${d.id}`, false), policy);
    };
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
    // An old run that ended long ago (last failure 5 h before now, gap 1 h): this failure starts afresh.
    await db('webhook_endpoints')
      .where({ id: endpointId })
      .update({ failing_since: hoursAgo(48), last_failed_at: hoursAgo(5) });
    expect(await fail()).toEqual({ disabled: false });
    const fresh = await db('webhook_endpoints').where({ id: endpointId }).first();
    expect(fresh.status).toBe('enabled');
    expect(Date.now() - fresh.failing_since.getTime()).toBeLessThan(60_000);

    // A run still going (last failure 10 min ago) and older than disableAfterMs: disabled, with the reason.
    await db('webhook_endpoints')
      .where({ id: endpointId })
      .update({ failing_since: hoursAgo(2), last_failed_at: new Date(Date.now() - 600_000) });
    expect(await fail()).toEqual({ disabled: true });
    const off = await db('webhook_endpoints').where({ id: endpointId }).first();
    expect(off.status).toBe('disabled');
    expect(off.disabled_reason).toMatch(/^Every delivery attempt failed since .*; last error: HTTP 503$/);
  });
});
