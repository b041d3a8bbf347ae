import knex, { type Knex } from 'knex';
import { generatePrivateKey } from 'viem/accounts';
import { loggablePaymentId } from '../../src/domain/gatewayId';
import { newBuyer, newWallet } from '../support/chain';
import { eventually } from '../support/eventually';
import { shopWithWallet, uniqueKey } from '../support/fixtures';
import { scrapedValue } from '../support/prometheus';
import { client, startTestService, TestService } from '../support/service';
import { spawnService, type ServiceProcess } from '../support/serviceProcess';

// Quotes are the buyer's (issue 28, finding 9): any gateway credential could quote for any payment, and the
// purge of a payment's oldest quotes took the buyer's with it (a confirm then got 404), or took the option of a
// confirm in flight, which then left the payment `processing` with an option id that pointed nowhere and that
// nothing could submit. Quotes are now purged per buyer account and only once expired; a payment refers to its
// option by a foreign key; and a processing payment without its option is reported by the reconciler.

jest.setTimeout(120_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const quote = (gw: ReturnType<typeof client>, id: string, address: string) =>
  gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [`eip155:31337:${address}`] } });
const confirmWith = async (gw: ReturnType<typeof client>, id: string, opt: any, buyer: Awaited<ReturnType<typeof newBuyer>>) =>
  gw('POST', `/v1/gateway/payment/${id}/confirm`, {
    body: {
      optionId: opt.id,
      results: [{ type: 'walletRpc', data: [await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]))] }],
    },
  });

/** Processing payments whose option does not exist: what the relayer can never submit. */
const withoutOption = async (db: Knex, id: string) =>
  (
    await db.raw(
      `SELECT count(*)::int AS n FROM payments p LEFT JOIN payment_options o ON o.id = p.option_id
        WHERE p.id = ? AND p.status = 'processing' AND o.id IS NULL`,
      [id],
    )
  ).rows[0].n;

describe('quotes of other callers', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ OPTIONS_MAX_PER_PAYMENT: '3' });
  }, 90_000);
  afterAll(() => svc?.close());

  it("another credential quoting in a loop never purges the buyer's quote: the buyer's confirm pays", async () => {
    const { gw, pay } = await shopWithWallet(svc, 'Quoted');
    const intruder = (await shopWithWallet(svc, 'Intruder')).gw;
    const buyer = await newBuyer(10_000_000n);
    const id = await pay();
    const mine = (await quote(gw, id, buyer.address)).body.options[0];
    // Another caller quotes the same payment for accounts of its own, and for the buyer's.
    for (let i = 0; i < 6; i++) expect((await quote(intruder, id, newWallet())).status).toBe(200);
    const forBuyer = [];
    for (let i = 0; i < 4; i++) forBuyer.push(await quote(intruder, id, buyer.address));
    // Under an Idempotency-Key the 429 is not the key's answer: asked again, it is refused afresh (with its
    // Retry-After, never a replay without one), and nothing is stored for the key.
    const key = uniqueKey('quote');
    const again = [];
    for (let i = 0; i < 2; i++)
      again.push(
        await intruder('POST', `/v1/gateway/payment/${id}/options`, {
          body: { accounts: [`eip155:31337:${buyer.address}`] },
          headers: { 'Idempotency-Key': key },
        }),
      );
    expect(again.map((q) => [q.status, q.body.code, q.headers.get('idempotent-replayed')])).toEqual([
      [429, 'rate_limited', null],
      [429, 'rate_limited', null],
    ]);
    expect(again.every((q) => Number(q.headers.get('retry-after')) >= 1)).toBe(true);
    expect(await svc.db('idempotency_keys').where({ key })).toEqual([]);
    const r = await confirmWith(gw, id, mine, buyer);
    expect({ status: r.status, code: r.body.code, paymentStatus: r.body.status }).toEqual({
      status: 200,
      code: undefined,
      paymentStatus: 'processing',
    });
    // The buyer's account holds at most 3 live quotes per caller: the intruder's 4th is refused, none is purged.
    expect(forBuyer.map((q) => q.status)).toEqual([200, 200, 200, 429]);
    expect(forBuyer[3].body.code).toBe('rate_limited');
    expect(Number(forBuyer[3].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it("a caller who quotes the buyer's account up to the cap does not block the buyer's own wallet", async () => {
    const { gw, pay } = await shopWithWallet(svc, 'Exhausted');
    const intruder = (await shopWithWallet(svc, 'Exhauster')).gw;
    const buyer = await newBuyer(10_000_000n);
    const id = await pay();
    const theirs = [];
    for (let i = 0; i < 4; i++) theirs.push((await quote(intruder, id, buyer.address)).status);
    expect(theirs).toEqual([200, 200, 200, 429]);
    // The buyer's wallet has a budget of its own: it quotes, and pays with the quote.
    const own = await quote(gw, id, buyer.address);
    expect({ status: own.status, code: own.body.code }).toEqual({ status: 200, code: undefined });
    const r = await confirmWith(gw, id, own.body.options[0], buyer);
    expect({ status: r.status, paymentStatus: r.body.status }).toEqual({ status: 200, paymentStatus: 'processing' });
    const stored = await svc.db('payment_options').where({ payment_id: id }).select('quoted_by');
    expect(new Set(stored.map((o) => o.quoted_by)).size).toBe(2);
  });
});

describe('a quote purged while its confirm is in flight', () => {
  let svc: TestService;
  beforeAll(async () => {
    // Quotes live 5 s and one per account is kept beyond those: the next quote purges an expired one at once.
    svc = await startTestService({ OPTIONS_MAX_PER_PAYMENT: '1', QUOTE_TTL_SECONDS: '5' });
  }, 90_000);
  afterAll(() => svc?.close());

  it('the confirm is refused (400 invalid_params, reason option_not_found) and the payment stays payable; never processing without its option', async () => {
    const { gw, pay } = await shopWithWallet(svc, 'Purged in flight');
    const buyer = await newBuyer(10_000_000n);
    const id = await pay();
    const opt = (await quote(gw, id, buyer.address)).body.options[0];
    let second: any;
    // The test holds the payment row, so the confirm's UPDATE waits after its checks have passed.
    const trx = await svc.db.transaction();
    try {
      await trx.raw('SELECT 1 FROM payments WHERE id = ? FOR NO KEY UPDATE', [id]);
      const confirming = confirmWith(gw, id, opt, buyer);
      const waiting = await eventually(
        async () =>
          Number(
            (
              await svc.db.raw(`SELECT count(*) AS n FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND datname = current_database() AND query ILIKE '%update "payments"%'`)
            ).rows[0].n,
          ),
        (n) => n > 0,
        10_000,
      );
      expect(waiting).toBe(1);
      // Once the quote has expired, the buyer's next quote purges it: no payment refers to it yet.
      await sleep(Math.max(0, new Date(opt.expiresAt * 1000).getTime() - Date.now()) + 1200);
      const next = await quote(gw, id, buyer.address);
      expect(next.status).toBe(200);
      second = next.body.options[0];
      expect(await svc.db('payment_options').where({ id: opt.id })).toHaveLength(0);
      await trx.commit();
      const r = await confirming;
      expect({ status: r.status, code: r.body.code, reason: r.body.reason }).toEqual({
        status: 400,
        code: 'invalid_params',
        reason: 'option_not_found',
      });
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
    }
    expect((await svc.db('payments').where({ id }).first()).status).toBe('requires_action');
    expect(await withoutOption(svc.db, id)).toBe(0);
    // And the buyer pays with the quote that purged the first.
    expect((await confirmWith(gw, id, second, buyer)).body.status).toBe('processing');
  });
});

describe('the reconciler and a processing payment it cannot submit', () => {
  let p: ServiceProcess;
  let db: Knex;
  beforeAll(async () => {
    p = await spawnService({ DEVNET_RELAYER_KEYS: generatePrivateKey(), NODE_ENV: 'test' });
    db = knex({ client: 'pg', connection: process.env.DATABASE_URL });
  }, 90_000);
  afterAll(async () => {
    await p?.kill('SIGTERM');
    await db?.destroy();
  });

  it('logs an error naming it and counts it in paygate_payments_unsubmittable', async () => {
    const { pay } = await shopWithWallet({ url: p.url }, 'Stranded');
    const id = await pay();
    // What a payment stranded before the foreign key looks like (its option id was cleared by the migration):
    // processing, no option, no transaction, idle for longer than the reconciler waits.
    await db('payments')
      .where({ id })
      .update({ status: 'processing', option_id: null, updated_at: db.raw("now() - interval '1 hour'") });
    try {
      const logged = await eventually(
        async () => p.logs.filter((l) => l.level >= 50 && (l as { paymentId?: string }).paymentId === loggablePaymentId(id)),
        (ls) => ls.length > 0,
        15_000,
      );
      expect(logged.length).toBe(1);
      expect(
        await eventually(
          () => scrapedValue(p.url, 'paygate_payments_unsubmittable'),
          (n) => n >= 1,
          15_000,
        ),
      ).toBeGreaterThanOrEqual(1);
      await sleep(1000); // several reconciler passes: the error is logged once per process, not at every pass
      expect(p.logs.filter((l) => l.level >= 50 && (l as { paymentId?: string }).paymentId === loggablePaymentId(id))).toHaveLength(1);
    } finally {
      await db('payments').where({ id }).update({ status: 'failed', failure_code: 'transaction_reverted' });
    }
  });
});
