import { getAddress } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { PERMIT2_ADDRESS } from '../../src/domain/permit2';
import { balanceOf, DEVNET_USDC, newBuyer, receiptOf, USDC_TOKEN } from '../support/chain';
import { newUsdtBuyer, USDT, usdtShop, type UsdtShop } from '../support/permit2';
import { startTestService, type TestService } from '../support/service';
import { strictProvider, strictWallet } from '../support/strictWallet';

// The actions in the JSON-RPC form every wallet speaks (issue 45): a wallet that hands each action's `method` and
// `params` unchanged to a strict EIP-1193 provider (one that, as MetaMask, refuses a transaction given as a string)
// pays USDC by an EIP-3009 signature and USDT by the Permit2 approve and then the permit, at both versions.

jest.setTimeout(120_000);

const VERSIONS = ['2026-02-18', '2026-02-19.preview'];
type Action = { type: string; data: { chain_id: string; method: string; params: unknown[] } };

describe('a strict EIP-1193 wallet paying the actions as they are', () => {
  let svc: TestService;
  let shop: UsdtShop;

  beforeAll(async () => {
    svc = await startTestService();
    shop = await usdtShop(svc, 'Strict Wallet Shop', 'collector');
  });
  afterAll(() => svc.close());

  /** Pays a new payment of `value` in `asset` at `version`: options, fetch, the wallet's runs, confirm. */
  async function pay(version: string, buyer: PrivateKeyAccount, asset: string, value: string) {
    const headers = { 'PAY-Version': version };
    const id = await shop.pay(value);
    const o = await shop.gw('POST', `/v1/gateway/payment/${id}/options`, {
      body: { accounts: [`eip155:31337:${buyer.address}`] },
      headers,
    });
    expect(o.status).toBe(200);
    const opt = o.body.options.find((x: any) => x.amount.unit === `caip19/${asset}`);
    const f = await shop.gw('POST', `/v1/gateway/payment/${id}/fetch`, { body: { optionId: opt.id, data: null }, headers });
    expect(f.status).toBe(200);
    // fetch hands over the same actions as options, in the same form.
    expect(f.body.actions).toEqual(opt.actions);
    const { provider, asked } = strictProvider(buyer);
    const wallet = strictWallet(provider);
    const results: string[] = [];
    for (const a of opt.actions as Action[]) results.push(await wallet(a.data));
    const c = await shop.gw('POST', `/v1/gateway/payment/${id}/confirm`, {
      body: { optionId: opt.id, results: results.map((r) => ({ type: 'walletRpc', data: [r] })) },
      headers,
    });
    expect({ status: c.status, paid: c.body.status }).toEqual({ status: 200, paid: expect.stringMatching(/^(processing|succeeded)$/) });
    const done = await shop.until(id, (d) => d.status === 'succeeded' && d.settlement?.successful !== undefined);
    expect((await receiptOf(done.info.txId)).status).toBe('success');
    return { actions: opt.actions as Action[], asked, done };
  }

  it.each(VERSIONS)('pays USDT: the approve as a transaction object, mined, then the permit (%s)', async (version) => {
    const buyer = await newUsdtBuyer(12_000_000n);
    const shopBefore = await balanceOf(shop.wallet, 'USDT');
    const { actions, asked, done } = await pay(version, buyer, USDT, '1000');
    const token = getAddress(USDT.split(':').pop()!);
    expect(actions.map((a) => [a.data.method, a.data.params.map((p) => typeof p)])).toEqual([
      ['eth_sendTransaction', ['object']],
      ['eth_signTypedData_v4', ['string', 'string']],
    ]);
    expect(actions[0].data.params[0]).toEqual({
      from: buyer.address,
      to: token,
      value: '0x0',
      data: expect.stringMatching(new RegExp(`^0x095ea7b30{24}${PERMIT2_ADDRESS.slice(2).toLowerCase()}f{64}$`)),
    });
    // The provider got exactly what the options said, nothing rewritten on the way.
    expect(asked.filter((r) => r.method !== 'eth_getTransactionReceipt')).toEqual(
      actions.map((a) => ({ method: a.data.method, params: a.data.params })),
    );
    expect(done.settlement.successful.amount).toEqual({ unit: `caip19/${USDT}`, value: '10000000' });
    expect(await balanceOf(buyer.address, 'USDT')).toBe(2_000_000n);
    expect((await balanceOf(shop.wallet, 'USDT')) - shopBefore).toBe(10_000_000n);
  });

  it.each(VERSIONS)('pays USDC: one EIP-3009 signature of the typed data string (%s)', async (version) => {
    const buyer = await newBuyer(5_000_000n);
    const shopBefore = await balanceOf(shop.wallet, 'USDC');
    const { actions, asked, done } = await pay(version, buyer, DEVNET_USDC, '500');
    expect(actions.map((a) => a.data.method)).toEqual(['eth_signTypedData_v4']);
    const [address, typedData] = actions[0].data.params as [string, string];
    expect(address).toBe(buyer.address);
    expect(JSON.parse(typedData).domain.verifyingContract).toBe(USDC_TOKEN);
    expect(asked).toEqual([{ method: 'eth_signTypedData_v4', params: actions[0].data.params }]);
    expect(done.settlement.successful.amount).toEqual({ unit: `caip19/${DEVNET_USDC}`, value: '5000000' });
    expect(await balanceOf(buyer.address, 'USDC')).toBe(0n);
    expect((await balanceOf(shop.wallet, 'USDC')) - shopBefore).toBe(5_000_000n);
  });

  it('the provider refuses what MetaMask refuses: a transaction given as a JSON string', async () => {
    const buyer = await newUsdtBuyer(0n);
    const { provider } = strictProvider(buyer);
    const tx = { from: buyer.address, to: getAddress(USDT.split(':').pop()!), value: '0x0', data: '0x' };
    await expect(provider.request({ method: 'eth_sendTransaction', params: [JSON.stringify(tx)] })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(provider.request({ method: 'eth_sendTransaction', params: [{ ...tx, value: '0' }] })).rejects.toMatchObject({
      code: -32602,
    });
  });
});
