import { createDb } from '../../src/db/knex';
import { eventually } from '../support/eventually';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { creationsWaitingOnLocks } from '../support/locks';
import { client, startTestService, TestService } from '../support/service';
import { spawnService } from '../support/serviceProcess';

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

describe('Idempotency-Key claims', () => {
  it('of a holder that died are free at once: the retry runs the work, once', async () => {
    const key = uniqueKey('dead');
    const ref = uniqueKey('order');
    const doomed = await spawnService({ NODE_ENV: 'test' });
    const trx = await lockMerchant();
    let killedAt: number;
    try {
      void createPayment(doomed.url, key, ref).catch(() => undefined); // its answer never comes
      await insertWaiting();
      await doomed.kill('SIGKILL');
      killedAt = Date.now();
    } finally {
      await trx.rollback();
    }
    // The dead process's transaction is rolled back as soon as PostgreSQL notices the closed connection:
    // its claim and its half-made payment go with it (the previous release answered 409 for 60 s).
    const retry = await eventually(
      () => createPayment(svc.url, key, ref),
      (r) => r.status !== 409,
      15_000,
      200,
    );
    expect(retry.status).toBe(201);
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    expect(await paymentsOf(ref)).toEqual([{ id: retry.body.paymentId }]);
    expect(await svc.db('idempotency_keys').where({ key }).select('state', 'response_status')).toEqual([
      { state: 'done', response_status: 201 },
    ]);
    expect(await svc.db('payment_events').where({ payment_id: retry.body.paymentId }).select('type')).toEqual([
      { type: 'payment.created' },
    ]);
  }, 60_000);
});
