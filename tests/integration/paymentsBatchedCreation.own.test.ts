import { eventually } from '../support/eventually';
import { uniqueKey } from '../support/fixtures';
import { creationsWaitingOnLocks } from '../support/locks';
import { create, direct, events, m, svc, usd, usePaymentsSuite } from '../support/paymentsSuite';
import { scrapedValue } from '../support/prometheus';
import { client, newAccount } from '../support/service';

usePaymentsSuite();

describe('creations arriving together (those waiting go in one statement: src/lib/batches.ts)', () => {
  const waitingCreations = () => scrapedValue(svc.directUrl, 'paygate_payment_creations_waiting');
  /**
   * Sends `requests` so that they wait together: two creations for the fixture merchant are held first (the
   * merchant's row is locked, which their foreign-key checks wait for), taking both statements creation runs at
   * once; the requests are sent once both wait, and the lock is let go once all of them are waiting too.
   */
  const together = async <T>(requests: (() => Promise<T>)[]): Promise<T[]> => {
    const trx = await svc.db.transaction();
    let held: Promise<unknown>[] = [];
    try {
      await trx('merchants').where({ id: m.merchantId }).forUpdate().select('id');
      held = [0, 1].map(() => create({ referenceId: uniqueKey('held'), amount: usd() }));
      const blocked = await eventually(
        () => creationsWaitingOnLocks(svc.db),
        (n) => n === 2,
        10_000,
      );
      expect(blocked).toBe(2);
      const answers = Promise.all(requests.map((r) => r()));
      expect(await eventually(waitingCreations, (n) => n === requests.length, 10_000)).toBe(requests.length);
      await trx.commit();
      return await answers;
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
      await Promise.all(held);
    }
  };
  const transactionsOf = async (ids: string[]) =>
    Number((await svc.db.raw(`SELECT count(DISTINCT xmin::text) AS n FROM payments WHERE id = ANY(?)`, [ids])).rows[0].n);

  it('each gets its own answer and only its own rows, whatever the others with it asked', async () => {
    const intruder = await newAccount('Batch intruder');
    const bare = (
      await m.api('POST', '/v1/merchants', {
        body: { merchantName: 'Batch bare', merchantEmail: 'b@x.io' },
        headers: { 'Idempotency-Key': uniqueKey() },
      })
    ).body.merchant.id;
    const as = (key: string, merchantId: string) => client(svc.url, { 'Api-Key': key, 'Merchant-Id': merchantId });
    const tag = uniqueKey('together');
    const inAnHour = Math.floor(Date.now() / 1000) + 3600;
    // Every kind of answer creation gives, interleaved; each request's amount is its own, to tell them apart, and
    // references carry what array parameters must quote (quotes, backslashes, braces, commas, unicode).
    const checkout = { successUrl: 'https://shop.example/ok', errorUrl: 'https://shop.example/ko' };
    const kinds = [
      { expect: [201], c: m.asMerchant, extra: {} },
      { expect: [201], c: m.asMerchant, extra: { expiresAt: inAnHour } },
      { expect: [201], c: direct, extra: { checkout }, headers: { 'PAY-Version': '2026-02-19.preview' } },
      { expect: [403, 'forbidden'], c: as(intruder.apiKey, m.merchantId), extra: {} },
      { expect: [404, 'merchant_not_found'], c: as(m.apiKey, 'mrch_nope'), extra: {} },
      { expect: [409, 'invalid_state'], c: as(m.apiKey, bare), extra: {} },
      { expect: [400, 'params_validation'], c: m.asMerchant, extra: { expiresAt: inAnHour + 31 * 86400 } },
    ] as const;
    const odd = ['', ' "quoted"', ' back\\slash', ' {brace,comma}', ' NULL', ' ünïcödé ✓ 💸'];
    const sent = Array.from({ length: 63 }, (_, i) => ({
      i,
      kind: kinds[i % kinds.length],
      ref: `${tag}-${i}${odd[i % odd.length]}`,
      value: String(1000 + i),
    }));
    const answers = await together(
      sent.map(
        (x) => () =>
          create({ referenceId: x.ref, amount: usd(x.value), ...x.kind.extra }, x.kind.c, 'headers' in x.kind ? x.kind.headers : {}),
      ),
    );

    const stored = await svc.db('payments').where('reference_id', 'like', `${tag}-%`);
    const byRef = new Map(stored.map((row) => [row.reference_id as string, row]));
    for (const [n, x] of sent.entries()) {
      const r = answers[n];
      if (x.kind.expect[0] !== 201) {
        expect({ i: x.i, status: r.status, code: r.body.code }).toEqual({ i: x.i, status: x.kind.expect[0], code: x.kind.expect[1] });
        expect(byRef.has(x.ref)).toBe(false);
        continue;
      }
      expect({ i: x.i, status: r.status }).toEqual({ i: x.i, status: 201 });
      const row = byRef.get(x.ref)!;
      expect(row).toMatchObject({
        id: r.body.paymentId,
        merchant_id: m.merchantId,
        amount_minor: x.value,
        status: 'requires_action',
        version: 1,
      });
      expect(r.body.expiresAt).toBe(Math.floor((row.expires_at as Date).getTime() / 1000));
      if ('expiresAt' in x.kind.extra) expect(r.body.expiresAt).toBe(inAnHour);
      expect([row.checkout_success_url, row.checkout_error_url]).toEqual(
        'checkout' in x.kind.extra ? [checkout.successUrl, checkout.errorUrl] : [null, null],
      );
      const evs = await events(r.body.paymentId);
      expect(evs.map((e) => [e.type, e.record.paymentId, e.record.amountMinor, e.record.referenceId])).toEqual([
        ['payment.created', r.body.paymentId, x.value, x.ref],
      ]);
      expect(evs[0].record.createdAt).toBe((row.created_at as Date).toISOString());
      expect(evs[0].record.expiresAt).toBe((row.expires_at as Date).toISOString());
    }
    expect(stored).toHaveLength(27);
    // All in one statement: the rows share its transaction's id.
    expect(await transactionsOf(stored.map((row) => row.id))).toBe(1);
  });

  it('a creation the database refuses fails alone: the others waiting with it are created', async () => {
    const tag = uniqueKey('poison');
    const poison = `${tag}-13`;
    await svc.db.raw(`CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.reference_id = '${poison}' THEN RAISE EXCEPTION 'poisoned'; END IF; RETURN NEW; END $$`);
    await svc.db.raw('CREATE TRIGGER refuse_poison BEFORE INSERT ON payments FOR EACH ROW EXECUTE FUNCTION refuse_poison()');
    try {
      const refs = Array.from({ length: 30 }, (_, i) => `${tag}-${i}`);
      const answers = await together(refs.map((ref) => () => create({ referenceId: ref, amount: usd() })));
      expect(answers.map((r, i) => [refs[i], r.status, r.body.code])).toEqual(
        refs.map((ref) => (ref === poison ? [ref, 500, 'internal_error'] : [ref, 201, undefined])),
      );
      const stored = await svc.db('payments').where('reference_id', 'like', `${tag}-%`).pluck('id');
      expect(stored).toHaveLength(29);
      // Each was created alone once the statement of all of them failed.
      expect(await transactionsOf(stored)).toBe(29);
    } finally {
      await svc.db.raw('DROP TRIGGER refuse_poison ON payments');
      await svc.db.raw('DROP FUNCTION refuse_poison()');
    }
  });
});
