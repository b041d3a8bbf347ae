import { generatePrivateKey } from 'viem/accounts';
import { DEVNET_USDC, newBuyer, receiptOf } from '../support/chain';
import { eventually } from '../support/eventually';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, newKey, startTestService, TestService } from '../support/service';
import { startReceiver, type Receiver } from '../support/webhookReceiver';

// ROLE (src/server.ts): a process that only serves the API enqueues work and never does it; a process that
// only works the queues answers health, readiness and metrics and refuses API requests. Together, over one
// database, they take a payment from confirm to settled on the chain and deliver its webhooks.

jest.setTimeout(120_000);

describe('ROLE=api and ROLE=worker over one database', () => {
  // One relayer key for both: the API process names it in the options, the worker submits from it.
  const keys = { DEVNET_RELAYER_KEYS: generatePrivateKey() };
  let api: TestService;
  let worker: TestService | undefined;
  let rx: Receiver;
  beforeAll(async () => {
    api = await startTestService({ ROLE: 'api', ...keys });
    rx = await startReceiver();
  });
  afterAll(async () => {
    await rx.close();
    await worker?.close();
    await api.close();
  });

  it('the API process queues the chain work and webhooks; the worker process does them; the worker serves no API', async () => {
    const shop = await merchantWithSettlement(api, 'Split Shop');
    const hook = await shop.api('POST', '/v1/webhook-endpoints', {
      body: { url: rx.url, enabledEvents: ['payment.succeeded', 'payment.settled'] },
      headers: { 'Idempotency-Key': uniqueKey(), 'PAY-Version': '2026-02-19.preview' },
    });
    expect(hook.status).toBe(201);
    const wallet = await newKey(shop.accountId, 'wallet');
    const gw = client(api.url, { 'Api-Key': wallet.apiKey });
    const buyer = await newBuyer(10_000_000n);

    const created = await shop.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('split'), amount: { unit: 'iso4217/USD', value: '250' } },
    });
    expect(created.status).toBe(201);
    const id = created.body.paymentId as string;
    const options = await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [`eip155:31337:${buyer.address}`] } });
    expect(options.status).toBe(200);
    const opt = options.body.options[0];
    const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
    const confirmed = await gw('POST', `/v1/gateway/payment/${id}/confirm`, {
      body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] },
    });
    expect({ status: confirmed.status, payment: confirmed.body.status }).toEqual({ status: 200, payment: 'processing' });

    // Only the API process runs: the submission waits in the queue, nothing was signed or sent.
    const queued = await api.db.raw(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'payment-submit' AND data->>'paymentId' = ?`, [
      id,
    ]);
    expect(queued.rows[0].n).toBe(1);
    expect(await api.db('chain_transactions').where({ payment_id: id })).toHaveLength(0);

    worker = await startTestService({ ROLE: 'worker', ...keys });
    // The worker answers the operational routes, and the one error body for anything else.
    expect((await fetch(`${worker.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${worker.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${worker.url}/metrics`)).status).toBe(200);
    const refused = await client(worker.url, { 'Api-Key': shop.apiKey })('GET', '/v1/merchants');
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 404, code: 'not_found' });

    // The worker takes the queued submission: on chain, succeeded, settled, and both webhooks delivered.
    const settled = await eventually(
      async () => (await shop.asMerchant('GET', `/v1/payments/${id}`)).body,
      (d) => d.status === 'succeeded' && d.settlement?.successful !== undefined,
      60_000,
    );
    expect(settled.status).toBe('succeeded');
    expect((await receiptOf(settled.info.txId)).status).toBe('success');
    expect((await receiptOf(settled.settlement.successful.txId)).status).toBe('success');
    expect(settled.settlement.successful.amount).toEqual({ unit: `caip19/${DEVNET_USDC}`, value: '2500000' });
    const mine = (all: { body: any }[]) => all.filter((r) => r.body?.data?.payment?.paymentId === id);
    const got = await rx.until((all) => mine(all).length >= 2, 60_000);
    expect(
      mine(got)
        .map((r) => r.body.type)
        .sort(),
    ).toEqual(['payment.settled', 'payment.succeeded']);
  });
});
