import { getAddress, parseAbiItem, type Address, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { createDb } from '../../src/db/knex';
import { balanceOf, chainClient, newBuyer, USDC_TOKEN } from '../support/chain';
import { eventually } from '../support/eventually';
import { startRpcProxy } from '../support/rpcProxy';
import { adminOn, adminWith, newKey } from '../support/service';
import { figures, ownStack, partner, send } from './kit';

// A service process killed (SIGKILL) after it stored a scheduled settlement's batch signed and before the transfer
// reached the chain (its broadcasts refused by the RPC proxy in front of the node): the next process broadcasts the
// stored transaction; the merchant is paid once, in one transfer, every payment settles with it, no second batch is
// stored for the slot or the next ones, and the ledger agrees with the chain.

jest.setTimeout(150_000);

const PAYMENTS = 4;
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

describe('a process killed between storing and sending a scheduled settlement', () => {
  it('the stored batch is sent by the next process: paid once, nothing lost', async () => {
    const proxy = await startRpcProxy(process.env.DEVNET_RPC_URL!);
    const schedule = { SETTLEMENT_SCHEDULE_UNIT_MS: '1000', SWEEP_INTERVAL_MS: '200', CHAIN_POLL_INTERVAL_MS: '100' };
    const stack = await ownStack('paygate_faults_batch', { DEVNET_RPC_URL: proxy.url, ...schedule });
    const db = createDb(stack.dbUrl, 2);
    try {
      const first = await stack.start();
      const shop = await partner(first.url, stack.dbUrl, 'Batch Crash');
      await adminOn(stack.dbUrl, 'accounts', 'set-settlement-schedule', '--account', shop.accountId, '--every-minutes', '44640');
      const wallet = { 'Api-Key': (await newKey(shop.accountId, 'wallet', stack.dbUrl)).apiKey };
      const ids: string[] = [];
      for (let i = 0; i < PAYMENTS; i++) {
        const buyer = await newBuyer(10_000_000n);
        const pay = await send(first.url, 'POST', '/v1/payments', shop.headers, {
          referenceId: `batch-${i}`,
          amount: { unit: 'iso4217/USD', value: '250' },
        });
        const id = pay.body.paymentId as string;
        const opt = (
          await send(first.url, 'POST', `/v1/gateway/payment/${id}/options`, wallet, { accounts: [`eip155:31337:${buyer.address}`] })
        ).body.options[0];
        const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
        const c = await send(first.url, 'POST', `/v1/gateway/payment/${id}/confirm`, wallet, {
          optionId: opt.id,
          results: [{ type: 'walletRpc', data: [sig] }],
        });
        expect(c.status).toBe(200);
        ids.push(id);
      }
      // All collected over a second ago (the slot that begins next takes them all), none settled.
      await eventually(
        async () =>
          (
            await db.raw(
              `SELECT count(*)::int AS n FROM ledger_journals WHERE ref = ANY(?::text[]) AND created_at < now() - interval '1.1 second'`,
              [ids.map((id) => `collected:${id}`)],
            )
          ).rows[0].n,
        (n) => n === PAYMENTS,
        30_000,
      );
      expect(await db('payments').whereIn('id', ids).whereNotNull('settled_at')).toHaveLength(0);

      // The batch is stored signed, its broadcast refused; the process dies before the transfer reaches the chain.
      proxy.refuse('eth_sendRawTransaction');
      await adminOn(stack.dbUrl, 'accounts', 'set-settlement-schedule', '--account', shop.accountId, '--every-minutes', '1');
      const stored = await eventually(
        () => db('chain_transactions').where({ purpose: 'settle_batch' }).select('id', 'tx_hash', 'status'),
        (rows) => rows.length === 1,
        30_000,
      );
      await first.kill('SIGKILL');
      expect(await db('chain_transactions').where({ purpose: 'settle_batch' }).select('status')).toEqual([{ status: 'pending' }]);
      proxy.up();

      const second = await stack.start();
      await eventually(
        () => db('payments').whereIn('id', ids).whereNotNull('settled_at').select('settlement_tx_hash'),
        (rows) => rows.length === PAYMENTS,
        60_000,
      );
      const batches = await db('settlement_batches').select('chain_tx_id', 'amount', 'released_at');
      const txs = await db('chain_transactions').where({ purpose: 'settle_batch' }).select('id', 'tx_hash', 'status');
      const collector = getAddress(privateKeyToAddress(stack.env.DEVNET_RELAYER_KEYS as Hex));
      const destination = getAddress(
        (await db('crypto_settlements').where({ merchant_id: shop.merchantId }).first()).destination.split(':')[2],
      ) as Address;
      const transfers = await chainClient().getLogs({
        address: USDC_TOKEN,
        event: TRANSFER,
        args: { from: collector, to: destination },
        fromBlock: 0n,
      });
      figures('scheduled-settlement-crash', { batches: batches.length, transactions: txs.length, transfers: transfers.length });
      expect(txs).toEqual([{ id: stored[0].id, tx_hash: stored[0].tx_hash, status: 'confirmed' }]);
      expect(batches).toEqual([{ chain_tx_id: stored[0].id, amount: '10000000', released_at: null }]);
      expect(transfers.map((t) => [t.transactionHash, t.args.value])).toEqual([[stored[0].tx_hash, 10_000_000n]]);
      expect(await balanceOf(destination)).toBe(10_000_000n);
      expect(new Set(await db('payments').whereIn('id', ids).pluck('settlement_tx_hash'))).toEqual(new Set([stored[0].tx_hash]));
      expect(await db('payment_events').whereIn('payment_id', ids).where({ type: 'payment.settled' })).toHaveLength(PAYMENTS);
      const r = await send(second.url, 'GET', `/v1/payments/${ids[0]}`, shop.headers);
      expect(r.body.settlement.successful).toEqual({ amount: { unit: expect.any(String), value: '2500000' }, txId: stored[0].tx_hash });
      const check = await adminWith({ DATABASE_URL: stack.dbUrl, DEVNET_RPC_URL: proxy.url }, 'ledger', 'check');
      expect({ code: check.code, differences: check.out?.differences }).toEqual({ code: 0, differences: [] });
    } finally {
      await db.destroy();
      await stack.close();
      await proxy.close();
    }
  });
});
