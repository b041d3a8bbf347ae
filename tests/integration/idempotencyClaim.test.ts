import { createDb } from '../../src/db/knex';
import { eventually } from '../support/eventually';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { creationsWaitingOnLocks } from '../support/locks';
import { client, Res, startTestService, TestService } from '../support/service';

// An Idempotency-Key's claim lives exactly as long as the request holding it: however long the first
// request runs, a retry is 409 (on payment creation the hosted contract's idempotency_conflict, with reason
// idempotency_in_progress), never a second run; once its holder is gone (the process killed mid-request), the
// next retry runs the work at once. A payment creation is held up
// mid-request by locking its merchant's row from another session: its INSERT waits on the foreign key.

let svc: TestService;
let m: Awaited<ReturnType<typeof merchantWithSettlement>>;
let locker: ReturnType<typeof createDb>;
beforeAll(async () => {
  svc = await startTestService();
  m = await merchantWithSettlement(svc, 'Idempotent Shop');
  locker = createDb(process.env.DATABASE_URL!, 4);
});
afterAll(async () => {
  await svc?.close();
  await locker?.destroy();
});

const lockMerchant = async () => {
  const trx = await locker.transaction();
  await trx('merchants').where({ id: m.merchantId }).forUpdate();
  return trx;
};
/** Resolves once a payment creation waits on a lock (the request is mid-flight, holding its claim). */
const insertWaiting = () =>
  eventually(
    () => creationsWaitingOnLocks(locker),
    (n) => n > 0,
    10_000,
  );
const createPayment = (baseUrl: string, key: string, referenceId: string) =>
  client(baseUrl, { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId })('POST', '/v1/payments', {
    body: { referenceId, amount: { unit: 'iso4217/USD', value: '1000' } },
    headers: { 'Idempotency-Key': key },
  });
const paymentsOf = (referenceId: string) => svc.db('payments').where({ reference_id: referenceId }).select('id');
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<'still running'>((r) => setTimeout(() => r('still running'), ms))]);

describe('Idempotency-Key claims', () => {
  it('are never taken over while the first request runs, however long it takes', async () => {
    const key = uniqueKey('slow');
    const ref = uniqueKey('order');
    const trx = await lockMerchant();
    let first: Promise<Res> | undefined;
    try {
      first = createPayment(svc.url, key, ref);
      await insertWaiting();
      // As if the first request had been running for 10 minutes (the old claim was taken over after 60 s).
      await locker('idempotency_keys')
        .where({ key })
        .update({ locked_at: locker.raw("now() - interval '10 minutes'") });
      const retry = await within(createPayment(svc.url, key, ref), 5000);
      expect(retry).not.toBe('still running');
      const r = retry as Res;
      // On payment creation the hosted contract's code, ours in reason (docs/api.md, Errors).
      expect({ status: r.status, code: r.body.code, reason: r.body.reason, retryAfter: r.headers.get('retry-after') }).toEqual({
        status: 409,
        code: 'idempotency_conflict',
        reason: 'idempotency_in_progress',
        retryAfter: '1',
      });
      // A different request with the key is told the same while the first runs (reason absent once it has finished).
      const other = await createPayment(svc.url, key, uniqueKey('order'));
      expect({ status: other.status, code: other.body.code, reason: other.body.reason }).toEqual({
        status: 409,
        code: 'idempotency_conflict',
        reason: 'idempotency_in_progress',
      });
    } finally {
      await trx.rollback();
    }
    const done = await first!;
    expect(done.status).toBe(201);
    const replay = await createPayment(svc.url, key, ref);
    expect({ status: replay.status, text: replay.text, replayed: replay.headers.get('idempotent-replayed') }).toEqual({
      status: 201,
      text: done.text,
      replayed: 'true',
    });
    expect(await paymentsOf(ref)).toEqual([{ id: done.body.paymentId }]);
    expect(await svc.db('idempotency_keys').where({ key }).select('state', 'response_status')).toEqual([
      { state: 'done', response_status: 201 },
    ]);
    const conflict = await createPayment(svc.url, key, uniqueKey('order'));
    expect({ status: conflict.status, code: conflict.body.code, reason: conflict.body.reason }).toEqual({
      status: 409,
      code: 'idempotency_conflict',
      reason: undefined,
    });
  });

  it('a refusal is stored with the claim and replayed', async () => {
    const key = uniqueKey('refused');
    const asOther = client(svc.url, { 'Api-Key': m.apiKey, 'Merchant-Id': 'mrch_doesnotexist' });
    const body = { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '1000' } };
    const r = await asOther('POST', '/v1/payments', { body, headers: { 'Idempotency-Key': key } });
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 404, code: 'merchant_not_found' });
    const again = await asOther('POST', '/v1/payments', { body, headers: { 'Idempotency-Key': key } });
    expect({ status: again.status, text: again.text, replayed: again.headers.get('idempotent-replayed') }).toEqual({
      status: 404,
      text: r.text,
      replayed: 'true',
    });
    expect(await svc.db('idempotency_keys').where({ key }).select('state', 'response_status')).toEqual([
      { state: 'done', response_status: 404 },
    ]);
  });
});
