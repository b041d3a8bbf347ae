import { createDb } from '../../src/db/knex';
import { balanceOf, newBuyer, receiptOf, tokenAdmin } from '../support/chain';
import { eventually } from '../support/eventually';
import { adminOn, adminWith } from '../support/service';
import { acknowledged, figures, inPool, ownStack, partner, send, sendUntilAcknowledged, type Outcome } from './kit';

// SIGKILL while refunds are being created and sent: after the restart every refund a client was told about (or
// retried with its Idempotency-Key) exists once, each is sent once, and every buyer has exactly what they paid
// back; the ledger agrees with the chain. The merchant's destination is blacklisted on the token, so the
// payments' shares stay in the collector, available to refund from.

jest.setTimeout(180_000); // two service processes, chain confirmations, and the reconciler's 30 s idle bound

const PAYMENTS = 8;
const KILL_AFTER_ACKS = PAYMENTS + 2; // all first refunds and two second ones

describe('a service process killed (SIGKILL) while refunds are created and sent', () => {
  it('no refund is lost or sent twice: each buyer gets back exactly what they paid', async () => {
    // Partial refunds of 0.40: below the default minimum (tests/integration/refundLimits.test.ts), so at its floor here.
    const stack = await ownStack('paygate_faults_refunds', { REFUND_MIN_USD_MINOR: '1', CHAIN_31337_NATIVE_PRICE_USD: '1' });
    const db = createDb(stack.dbUrl, 2);
    try {
      let svc = await stack.start();
      const shop = await partner(svc.url, stack.dbUrl, 'RefundCrash');
      const wallet = await adminOn(stack.dbUrl, 'keys', 'create', '--account', shop.accountId, '--type', 'wallet');
      const settlements = await send(svc.url, 'GET', `/v1/merchants/${shop.merchantId}/settlements`, { 'Api-Key': shop.apiKey });
      const destination = settlements.body.crypto[0].destination.split(':')[2] as `0x${string}`;
      await eventually(
        async () => receiptOf(await tokenAdmin('blacklist', destination)).catch(() => null),
        (r) => r !== null,
        15_000,
      );

      // Paid payments of USD 1.00, each by its own buyer.
      const paid: { id: string; buyer: `0x${string}` }[] = [];
      for (let i = 0; i < PAYMENTS; i++) {
        const buyer = await newBuyer(10_000_000n);
        const pay = await send(svc.url, 'POST', '/v1/payments', shop.headers, {
          referenceId: `r-${i}`,
          amount: { unit: 'iso4217/USD', value: '100' },
        });
        const id = pay.body.paymentId as string;
        const opts = await send(
          svc.url,
          'POST',
          `/v1/gateway/payment/${id}/options`,
          { 'Api-Key': wallet.apiKey },
          {
            accounts: [`eip155:31337:${buyer.address}`],
          },
        );
        const opt = opts.body.options[0];
        const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
        const c = await send(
          svc.url,
          'POST',
          `/v1/gateway/payment/${id}/confirm`,
          { 'Api-Key': wallet.apiKey },
          {
            optionId: opt.id,
            results: [{ type: 'walletRpc', data: [sig] }],
          },
        );
        expect(c.status).toBe(200);
        paid.push({ id, buyer: buyer.address });
      }
      const preview = { ...shop.headers, 'PAY-Version': '2026-02-19.preview' };
      const status = (id: string) => send(svc.url, 'GET', `/v1/payments/${id}`, shop.headers).then((o) => o.body?.status);
      for (const p of paid)
        expect(
          await eventually(
            () => status(p.id),
            (s) => s === 'succeeded',
            30_000,
          ),
        ).toBe('succeeded');

      // Two partial refunds per payment (0.40 and 0.60), each under its own key; the process dies mid-way.
      const refunds = paid.flatMap((p, i) =>
        ['40', '60'].map((value, j) => ({
          key: `refund-${i}-${j}`,
          body: { paymentId: p.id, amount: { unit: 'iso4217/USD', value } },
          first: undefined as Outcome | undefined,
        })),
      );
      const crashed = svc;
      const post = (r: (typeof refunds)[number]) =>
        send(crashed.url, 'POST', '/v1/refunds', { ...preview, 'Idempotency-Key': r.key }, r.body);
      // The first refund of each payment; once the relayer has stored one signed, the second ones, and the kill.
      const [firsts, seconds] = [refunds.filter((_, i) => i % 2 === 0), refunds.filter((_, i) => i % 2 === 1)];
      await inPool(firsts, 6, async (r) => void (r.first = await post(r)));
      await eventually(
        () => db('chain_transactions').where({ purpose: 'refund' }).first('id'),
        (t) => t !== undefined,
        30_000,
        5,
      );
      let acks = firsts.filter((r) => acknowledged(r.first!)).length;
      let killed: Promise<void> | null = null;
      await inPool(seconds, 6, async (r) => {
        r.first = await post(r);
        if (acknowledged(r.first) && ++acks === KILL_AFTER_ACKS) killed = crashed.kill('SIGKILL');
      });
      await killed;
      const sentBeforeKill = Number((await db('chain_transactions').where({ purpose: 'refund' }).count('* as n'))[0].n);
      svc = await stack.start();
      const unacked = refunds.filter((r) => !acknowledged(r.first!));
      for (const r of unacked) {
        const final = await sendUntilAcknowledged(() =>
          send(svc.url, 'POST', '/v1/refunds', { ...preview, 'Idempotency-Key': r.key }, r.body),
        );
        expect({ key: r.key, status: final.status }).toEqual({ key: r.key, status: 200 });
      }

      // Every refund succeeds, once; each buyer is whole again.
      const done = await eventually(
        () =>
          db('refunds')
            .where({ status: 'succeeded' })
            .count('* as n')
            .then((x) => Number(x[0].n)),
        (n) => n === refunds.length,
        120_000,
        250,
      );
      expect(done).toBe(refunds.length);
      expect(Number((await db('refunds').count('* as n'))[0].n)).toBe(refunds.length);
      const sent = await db('chain_transactions').where({ purpose: 'refund' }).select('status');
      expect(sent.filter((t) => t.status === 'confirmed')).toHaveLength(refunds.length);
      for (const p of paid) expect(await balanceOf(p.buyer)).toBe(10_000_000n);
      const balance = await send(svc.url, 'GET', '/v1/balance', { 'Api-Key': shop.apiKey, 'PAY-Version': '2026-02-19.preview' });
      expect(balance.body.balances.map((b: { available: string; reserved: string }) => [b.available, b.reserved])).toEqual([['0', '0']]);
      const check = await adminWith({ DATABASE_URL: stack.dbUrl }, 'ledger', 'check');
      const collector = (await db('chain_transactions').where({ purpose: 'refund' }).first()).sender;
      expect(check.out.differences.filter((d: { holder: string }) => d.holder === collector)).toEqual([]);
      figures('refund-crash', { refunds: refunds.length, acknowledgedBeforeKill: acks, unacked: unacked.length, sentBeforeKill });
      await tokenAdmin('unBlacklist', destination);
    } finally {
      await db.destroy();
      await stack.close();
    }
  });
});
