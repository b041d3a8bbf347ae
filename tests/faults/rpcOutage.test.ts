import type { PrivateKeyAccount } from 'viem/accounts';
import { createDb } from '../../src/db/knex';
import { anvil, balanceOf, newBuyer } from '../support/chain';
import { eventually } from '../support/eventually';
import { startRpcProxy } from '../support/rpcProxy';
import { newKey } from '../support/service';
import { figures, inPool, latency, type Outcome, ownStack, partner, send, sendUntilAcknowledged, sleep } from './kit';

// The chain's RPC node stopped while payments are being submitted: the service process reaches the chain
// only through a proxy the test stops. A quarter of the payments have their transfers broadcast and are
// waiting for confirmations (5 each) when it stops, a quarter were confirmed just before (their transfers
// are being signed and sent), half are confirmed while the node is down (503 service_unavailable, retried
// by the wallet). Every payment then succeeds, none fails, and each buyer is charged exactly once.

jest.setTimeout(150_000);

const PAYMENTS = 16;
const DOWN_MS = 6000;

interface Pay {
  id: string;
  buyer: PrivateKeyAccount;
  confirm: { path: string; body: unknown };
  first?: Outcome;
  final?: Outcome & { tries: number };
}

describe("the chain's RPC node stopped during submissions", () => {
  it('payments wait while it is down, then all succeed; none fails, none is charged twice', async () => {
    const proxy = await startRpcProxy(process.env.DEVNET_RPC_URL!);
    const stack = await ownStack('paygate_faults_rpc', { DEVNET_RPC_URL: proxy.url, DEVNET_CONFIRMATIONS: '5' });
    const db = createDb(stack.dbUrl, 2);
    try {
      const svc = await stack.start();
      const shop = await partner(svc.url, stack.dbUrl, 'Node Down');
      const wallet = { 'Api-Key': (await newKey(shop.accountId, 'wallet', stack.dbUrl)).apiKey };
      const pays: Pay[] = [];
      for (const buyer of await Promise.all(Array.from({ length: PAYMENTS }, () => newBuyer(10_000_000n)))) {
        const id = (
          await send(svc.url, 'POST', '/v1/payments', shop.headers, {
            referenceId: `rpc-${pays.length}`,
            amount: { unit: 'iso4217/USD', value: '1000' },
          })
        ).body.paymentId;
        const opt = (
          await send(svc.url, 'POST', `/v1/gateway/payment/${id}/options`, wallet, { accounts: [`eip155:31337:${buyer.address}`] })
        ).body.options[0];
        const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
        pays.push({
          id,
          buyer,
          confirm: { path: `/v1/gateway/payment/${id}/confirm`, body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] } },
        });
      }
      const confirm = (p: Pay) =>
        send(svc.url, 'POST', p.confirm.path, { ...wallet, 'Idempotency-Key': `confirm-${p.id}` }, p.confirm.body);
      const broadcast = pays.slice(0, PAYMENTS / 4);
      const before = pays.slice(0, PAYMENTS / 2);
      const during = pays.slice(PAYMENTS / 2);
      const broadcastCount = async () =>
        Number(
          (
            await db('chain_transactions')
              .whereIn(
                'payment_id',
                before.map((p) => p.id),
              )
              .where({ purpose: 'collect' })
              .whereNotNull('broadcast_at')
              .count<{ n: string }[]>({ n: '*' })
          )[0].n,
        );

      // A quarter confirmed and broadcast; a quarter confirmed, and the node stops as soon as they are answered.
      await inPool(broadcast, 4, async (p) => {
        p.first = await confirm(p);
      });
      expect(await eventually(broadcastCount, (n) => n === broadcast.length, 30_000)).toBe(broadcast.length);
      await inPool(before.slice(broadcast.length), 4, async (p) => {
        p.first = await confirm(p);
      });
      proxy.down();
      const downAt = Date.now();
      expect(before.map((p) => [p.first!.status, p.first!.body.status])).toEqual(before.map(() => [200, 'processing']));
      const broadcastBeforeDown = await broadcastCount();

      // The other half is confirmed while it is down: refused with 503 (nothing moves), retried by the wallet.
      await inPool(during, 4, async (p) => {
        p.first = await confirm(p);
      });
      expect(during.map((p) => ({ status: p.first!.status, code: p.first!.body.code }))).toEqual(
        during.map(() => ({ status: 503, code: 'service_unavailable' })),
      );
      expect(during.every((p) => Number(p.first!.headers!.get('retry-after')) > 0)).toBe(true);
      const retrying = Promise.all(
        during.map(async (p) => {
          p.final = await sendUntilAcknowledged(() => confirm(p), 60_000);
        }),
      );
      // Blocks go on being mined meanwhile (the service cannot see them).
      while (Date.now() - downAt < DOWN_MS) {
        await anvil().mine({ blocks: 1 });
        await sleep(500);
      }
      const midway = await db('payments')
        .whereIn(
          'id',
          pays.map((p) => p.id),
        )
        .select('id', 'status');
      proxy.up();
      const upAt = Date.now();
      await retrying;
      expect(during.map((p) => [p.final!.status, p.final!.body.status])).toEqual(during.map(() => [200, 'processing']));
      // While it was down nothing was given up: confirmed payments waited in processing (or had succeeded before).
      expect(midway.filter((p) => !['requires_action', 'processing', 'succeeded'].includes(p.status))).toEqual([]);
      const waitingWhileDown = midway.filter((p) => p.status === 'processing').length;
      expect(waitingWhileDown).toBeGreaterThan(0);

      const succeededAt = new Map<string, number>();
      const done = await eventually(
        async () => {
          await anvil().mine({ blocks: 1 });
          const rows = await db('payments')
            .whereIn(
              'id',
              pays.map((p) => p.id),
            )
            .select('id', 'status');
          for (const r of rows) if (r.status === 'succeeded' && !succeededAt.has(r.id)) succeededAt.set(r.id, Date.now());
          return rows;
        },
        (rows) => rows.every((p) => p.status === 'succeeded' || p.status === 'failed'),
        60_000,
        200,
      );
      expect(done.map((p) => p.status)).toEqual(pays.map(() => 'succeeded'));
      expect(
        await db('payment_events')
          .whereIn(
            'payment_id',
            pays.map((p) => p.id),
          )
          .where({ type: 'payment.failed' }),
      ).toEqual([]);
      const collects = await db('chain_transactions')
        .whereIn(
          'payment_id',
          pays.map((p) => p.id),
        )
        .where({ purpose: 'collect' })
        .select('payment_id', 'status');
      expect(collects.map((c) => c.payment_id).sort()).toEqual(pays.map((p) => p.id).sort());
      expect(await Promise.all(pays.map((p) => balanceOf(p.buyer.address)))).toEqual(pays.map(() => 0n));

      figures('rpc-outage', {
        payments: PAYMENTS,
        confirmedBeforeStop: before.length,
        broadcastBeforeStop: broadcastBeforeDown,
        nodeDownMs: upAt - downAt,
        processingWhileDown: waitingWhileDown,
        confirmsDuringOutage: { answered503: during.length, triesToAck: latency(during.map((p) => p.final!.tries)) },
        succeededAfterNodeBackMs: latency(midway.filter((p) => p.status !== 'succeeded').map((p) => succeededAt.get(p.id)! - upAt)),
        succeeded: done.length,
        failed: 0,
        collectTransactions: collects.length,
      });
    } finally {
      await db.destroy();
      await stack.close();
      await proxy.close();
    }
  });
});
