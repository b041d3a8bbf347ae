import { getAddress, http, createWalletClient, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { devnetChain } from '../../src/chain/devnet';
import { anvil, chainClient, rpcUrl } from '../support/chain';
import { eventually as until } from '../support/eventually';
import { eventually, useChainSuite } from '../support/chainSuite';
import { ethShop, newEthBuyer } from '../support/native';
import { startTestService, type TestService } from '../support/service';
import { spawnService, type ServiceProcess } from '../support/serviceProcess';

useChainSuite();

// An ETH payment (issue 49) against a chain that reorgs and a service that dies: the buyer's own transaction is the
// payment, so nothing is re-sent by the relayer; the router's state at the confirmation depth decides, once. On a
// chain of this file's own, three blocks deep.

/** The option's transaction, signed by the buyer (not sent): what the wallet would broadcast, and re-broadcast. */
async function signedPay(buyer: PrivateKeyAccount, param: { to: Hex; value: Hex; data: Hex }): Promise<Hex> {
  const url = rpcUrl();
  const wallet = createWalletClient({ chain: devnetChain(url), transport: http(url), account: buyer });
  const request = await wallet.prepareTransactionRequest({ to: param.to, value: BigInt(param.value), data: param.data, gas: 100_000n });
  return buyer.signTransaction(request as never);
}

const broadcast = (raw: Hex) => chainClient().sendRawTransaction({ serializedTransaction: raw });
const balance = (address: string) => chainClient().getBalance({ address: getAddress(address) });

describe('ETH payments when the chain reorgs or the service dies (3 blocks deep)', () => {
  const env = { DEVNET_CONFIRMATIONS: '3', NODE_ENV: 'test', CHAIN_STRANDED_AFTER_MS: '2000' };
  let svc: TestService | undefined;
  let proc: ServiceProcess | undefined;
  let snapshot: Hex;
  // Each case leaves the chain as it found it (one moves its clock past a deadline).
  beforeEach(async () => {
    snapshot = await anvil().snapshot();
  });
  afterEach(async () => {
    await anvil().setAutomine(true);
    await anvil().revert({ id: snapshot });
    await proc?.kill('SIGKILL').catch(() => undefined);
    await svc?.close();
    [svc, proc] = [undefined, undefined];
  });

  /** A direct-mode ETH shop on `url`, a buyer, a payment and its fetched transaction. */
  async function quoted(url: string) {
    const shop = await ethShop({ url } as TestService, 'ETH Faults Shop', 'direct');
    const buyer = await newEthBuyer();
    const id = await shop.pay('1000');
    const { opt } = await shop.ethOption(id, buyer);
    const [action] = (await shop.fetchActions(id, opt!.id)).body.actions;
    return { shop, buyer, id, optionId: opt!.id, param: action.data.params[0] as { to: Hex; value: Hex; data: Hex } };
  }

  it('a reorg takes the transaction out before depth: processing until the wallet sends it again, then succeeded once', async () => {
    const s = (svc = await startTestService(env));
    const { shop, buyer, id, optionId, param } = await quoted(s.url);
    const merchantBefore = await balance(shop.wallet);
    const raw = await signedPay(buyer, param);
    const hash = await broadcast(raw);
    await chainClient().waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect((await shop.confirm(id, optionId, [[hash]])).body.status).toBe('processing');
    // Replace its block (depth 1 of 3) with an empty one: the payment is not paid on the chain any more.
    await chainClient().request({ method: 'anvil_reorg' as never, params: [1, []] as never });
    expect(
      await chainClient()
        .getTransactionReceipt({ hash })
        .catch(() => null),
    ).toBeNull();
    await anvil().mine({ blocks: 4 });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await shop.details(id)).status).toBe('processing');
    // The wallet broadcasts it again: mined again, at depth, the payment succeeds with it; the merchant paid once.
    if (
      !(await chainClient()
        .getTransactionReceipt({ hash })
        .catch(() => null))
    )
      await broadcast(raw).catch(() => undefined);
    await eventually(async () => {
      await anvil().mine({ blocks: 1 });
      if ((await shop.details(id)).status !== 'succeeded') throw new Error('not succeeded yet');
    }, 30_000);
    const done = await shop.details(id);
    expect(done.info.txId).toBe(hash);
    expect((await balance(shop.wallet)) - merchantBefore).toBe(BigInt(param.value));
    expect(await s.db('payment_events').where({ payment_id: id, type: 'payment.succeeded' })).toHaveLength(1);
  });

  it('reorged out and never sent again: failed with authorization_expired once the deadline passes at depth; no coin moved', async () => {
    const s = (svc = await startTestService(env));
    const { shop, buyer, id, optionId, param } = await quoted(s.url);
    const before = await balance(buyer.address);
    const hash = await broadcast(await signedPay(buyer, param));
    const receipt = await chainClient().waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect((await shop.confirm(id, optionId, [[hash]])).body.status).toBe('processing');
    await chainClient().request({ method: 'anvil_reorg' as never, params: [1, []] as never });
    // anvil may put the transaction back in its pool: drop it, as a node that lost it would.
    await chainClient().request({ method: 'anvil_dropTransaction' as never, params: [hash] as never });
    const deadline = JSON.parse((await s.db('payment_options').where({ id: optionId }).first()).typed_data).message.deadline;
    await anvil().setNextBlockTimestamp({ timestamp: BigInt(deadline) + 10n });
    await anvil().mine({ blocks: 4 });
    await until(
      () => shop.details(id),
      (d) => d.status === 'failed',
      30_000,
    );
    expect(await s.db('payments').where({ id }).first()).toMatchObject({ status: 'failed', failure_code: 'authorization_expired' });
    expect(await balance(buyer.address)).toBe(before);
    expect(receipt.status).toBe('success'); // it had been mined, and was taken out
  });

  it('killed after confirm (kill -9): a new process finds the processing payment and it succeeds once', async () => {
    proc = await spawnService(env);
    const { shop, buyer, id, optionId, param } = await quoted(proc.url);
    const merchantBefore = await balance(shop.wallet);
    const hash = await broadcast(await signedPay(buyer, param));
    await chainClient().waitForTransactionReceipt({ hash, pollingInterval: 50 });
    const confirmed = await shop.confirm(id, optionId, [[hash]]);
    expect([confirmed.status, confirmed.body.status]).toEqual([200, 'processing']);
    await proc.kill('SIGKILL');
    proc = undefined;
    await anvil().mine({ blocks: 3 });
    const restarted = (svc = await startTestService(env));
    const row = () => restarted.db('payments').where({ id }).first();
    await until(row, (p) => p.status === 'succeeded', 30_000);
    expect(await row()).toMatchObject({ tx_hash: hash });
    expect((await balance(shop.wallet)) - merchantBefore).toBe(BigInt(param.value));
    expect(await restarted.db('payment_events').where({ payment_id: id, type: 'payment.succeeded' })).toHaveLength(1);
  });
});
