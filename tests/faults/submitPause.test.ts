import { createDb } from '../../src/db/knex';
import { anvil, balanceOf, chainClient, newBuyer, tokenAdmin, useOwnChain } from '../support/chain';
import { eventually } from '../support/eventually';
import { newKey } from '../support/service';
import type { ServiceProcess } from '../support/serviceProcess';
import { ownStack, partner, send } from './kit';

// A token paused while a confirmed payment's submission is simulated (seen in the soak: a one-block pause between
// confirm and submission) failed the payment token_refused at once: the buyer was not charged, but the payment was
// lost. The submission is now simulated again, with the step's backoff, until the authorization's validBefore; only
// then does the payment fail token_refused. An API process confirms (its submission waits in the queue), the token
// is paused, and a worker process takes the submission. On a chain of this file's own: the token is paused and the
// chain's clock moved forward.

jest.setTimeout(120_000);
useOwnChain();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a submission while the token is paused', () => {
  let stack: Awaited<ReturnType<typeof ownStack>>;
  let db: ReturnType<typeof createDb>;
  let url: string;
  let shop: Awaited<ReturnType<typeof partner>>;
  let wallet: Record<string, string>;
  beforeAll(async () => {
    stack = await ownStack('paygate_faults_submit_pause');
    db = createDb(stack.dbUrl, 2);
    url = (await stack.start({ ROLE: 'api' })).url;
    shop = await partner(url, stack.dbUrl, 'Paused Token Shop');
    wallet = { 'Api-Key': (await newKey(shop.accountId, 'wallet', stack.dbUrl)).apiKey };
  }, 60_000);
  afterAll(async () => {
    await tokenAdmin('unpause').catch(() => undefined);
    await db?.destroy();
    await stack?.close();
  });

  /** A USD 50.00 payment confirmed by the API process (processing, its submission queued); and its authorization's validBefore. */
  async function confirmed(ref: string) {
    const buyer = await newBuyer(50_000_000n);
    const id = (await send(url, 'POST', '/v1/payments', shop.headers, { referenceId: ref, amount: { unit: 'iso4217/USD', value: '5000' } }))
      .body.paymentId as string;
    const opt = (await send(url, 'POST', `/v1/gateway/payment/${id}/options`, wallet, { accounts: [`eip155:31337:${buyer.address}`] })).body
      .options[0];
    const td = JSON.parse(opt.actions[0].data.params[1]);
    const c = await send(url, 'POST', `/v1/gateway/payment/${id}/confirm`, wallet, {
      optionId: opt.id,
      results: [{ type: 'walletRpc', data: [await buyer.signTypedData(td)] }],
    });
    expect([c.status, c.body.status]).toEqual([200, 'processing']);
    return { id, buyer, validBefore: BigInt(td.message.validBefore) };
  }
  const payment = (id: string) => db('payments').where({ id }).first();
  const submissions = (id: string) => db('chain_transactions').where({ payment_id: id, purpose: 'collect' }).select('status');
  const status = async (id: string) => (await send(url, 'GET', `/v1/payments/${id}`, shop.headers)).body;

  it('is simulated again until the token lets it through, and then pays once', async () => {
    const { id, buyer } = await confirmed('paused-then-unpaused');
    await tokenAdmin('pause');
    const worker = await stack.start({ ROLE: 'worker' });
    try {
      await eventually(
        async () => worker.logs.filter((l) => /refuses the transfer for now/.test(String((l as { err?: string }).err))).length,
        (n) => n >= 2,
        20_000,
      );
      // Refused by its simulation several times: nothing was sent, and the payment is still processing.
      expect((await payment(id)).status).toBe('processing');
      expect(await submissions(id)).toEqual([]);
      await tokenAdmin('unpause');
      const done = await eventually(
        () => status(id),
        (p) => p.isFinal === true,
        40_000,
      );
      expect(done.status).toBe('succeeded');
      expect(await submissions(id)).toEqual([{ status: 'confirmed' }]);
      expect(await balanceOf(buyer.address)).toBe(0n);
    } finally {
      await worker.kill();
    }
  });

  it("fails token_refused once the authorization's validBefore has passed, the buyer never charged", async () => {
    const { id, buyer, validBefore } = await confirmed('paused-past-valid-before');
    await tokenAdmin('pause');
    const now = (await chainClient().getBlock({ blockTag: 'latest' })).timestamp;
    await anvil().increaseTime({ seconds: Number(validBefore - now) + 1 });
    await anvil().mine({ blocks: 1 });
    const worker: ServiceProcess = await stack.start({ ROLE: 'worker' });
    try {
      const failed = await eventually(
        () => payment(id),
        (p) => p.status !== 'processing',
        30_000,
      );
      expect({ status: failed.status, failureCode: failed.failure_code }).toEqual({ status: 'failed', failureCode: 'token_refused' });
      expect(await submissions(id)).toEqual([]);
      await sleep(500);
      expect(await balanceOf(buyer.address)).toBe(50_000_000n);
    } finally {
      await worker.kill();
    }
  });
});
