import { createPaygateClient, FetchActionsError, payOption, runActions } from '@paygate/client';
import { getAddress } from 'viem';
import { devnetRouterAddress } from '../../src/chain/nativeRouter';
import { balanceOf, chainClient } from '../support/chain';
import { ethAsset, ethShop, newEthBuyer } from '../support/native';
import { strictProvider, strictWallet } from '../support/strictWallet';
import { newUsdtBuyer, USDT, usdtShop, walletOf } from '../support/permit2';
import { startTestService, TestService } from '../support/service';

// @paygate/client (clients/typescript) against the real service: the headers it sets, the version it pins,
// and the typed results. The quickstart (make test-sdks) runs the whole payment flow with it.

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
}, 60_000); // starts a service: slow on a busy machine
afterAll(() => svc.close());

describe('@paygate/client', () => {
  // Like permit2.own.test.ts: the buyer's gas and tokens come from the run's own development chain.
  it('runActions: a Permit2 option paid in order (the approve mined, then the permit signed), USDT moving', async () => {
    const shop = await usdtShop(svc, 'Client USDT Shop', 'direct');
    const gateway = createPaygateClient({ baseUrl: svc.url, apiKey: shop.walletKey });
    const buyer = await newUsdtBuyer(4_000_000n);
    const id = await shop.pay('400');
    const path = { id };
    const options = await gateway.POST('/v1/gateway/payment/{id}/options', {
      params: { path },
      body: { accounts: [`eip155:31337:${buyer.address}`] },
    });
    const option = options.data!.options!.find((o) => o.amount.unit === `caip19/${USDT}`)!;
    expect(option.actions.map((a) => a.type === 'walletRpc' && a.data.method)).toEqual(['eth_sendTransaction', 'eth_signTypedData_v4']);
    const ran: string[] = [];
    const results = await runActions(option.actions, async (request) => {
      ran.push(request.method);
      return walletOf(buyer)(request);
    });
    expect(ran).toEqual(['eth_sendTransaction', 'eth_signTypedData_v4']);
    expect(results).toEqual([
      { type: 'walletRpc', data: [expect.stringMatching(/^0x[0-9a-f]{64}$/)] },
      { type: 'walletRpc', data: [expect.stringMatching(/^0x[0-9a-f]{130}$/)] },
    ]);
    const confirmed = await gateway.POST('/v1/gateway/payment/{id}/confirm', { params: { path }, body: { optionId: option.id, results } });
    expect(confirmed.response.status).toBe(200);
    expect((await shop.until(id, (d) => d.status === 'succeeded')).status).toBe('succeeded');
    expect(await balanceOf(buyer.address, 'USDT')).toBe(0n);
    expect(await balanceOf(shop.wallet, 'USDT')).toBe(4_000_000n);

    // A build action has no wallet request: runActions refuses it before running anything.
    await expect(runActions([{ type: 'build', data: { data: 'opaque' } }], () => Promise.reject(new Error('ran')))).rejects.toThrow(
      /fetch/,
    );
  });

  it('payOption: an ETH option (direct mode) fetched into its transaction, sent by a strict EIP-1193 wallet, confirmed', async () => {
    const shop = await ethShop(svc, 'Client ETH Shop', 'direct');
    const gateway = createPaygateClient({ baseUrl: svc.url, apiKey: shop.walletKey });
    const buyer = await newEthBuyer();
    const id = await shop.pay('700');
    const path = { id };
    const options = await gateway.POST('/v1/gateway/payment/{id}/options', {
      params: { path },
      body: { accounts: [`eip155:31337:${buyer.address}`] },
    });
    const option = options.data!.options!.find((o) => o.amount.unit === `caip19/${ethAsset()}`)!;
    expect(option.actions).toEqual([{ type: 'build', data: { data: 'native' } }]);
    // runActions alone still refuses it, naming the way on.
    await expect(runActions(option.actions, () => Promise.reject(new Error('ran')))).rejects.toThrow(/payOption/);

    const pub = chainClient();
    const merchantBefore = await pub.getBalance({ address: getAddress(shop.wallet) });
    const { provider, asked } = strictProvider(buyer);
    const results = await payOption(gateway, id, option, strictWallet(provider));
    // The wallet was asked for exactly the router transaction of the quote, params as fetch answered them.
    expect(asked[0]).toEqual({
      method: 'eth_sendTransaction',
      params: [
        { from: buyer.address, to: devnetRouterAddress, value: `0x${BigInt(option.amount.value).toString(16)}`, data: expect.any(String) },
      ],
    });
    expect(results).toEqual([{ type: 'walletRpc', data: [expect.stringMatching(/^0x[0-9a-f]{64}$/)] }]);
    const confirmed = await gateway.POST('/v1/gateway/payment/{id}/confirm', { params: { path }, body: { optionId: option.id, results } });
    expect(confirmed.response.status).toBe(200);
    expect((await shop.until(id, (d) => d.status === 'succeeded')).status).toBe('succeeded');
    expect((await pub.getBalance({ address: getAddress(shop.wallet) })) - merchantBefore).toBe(BigInt(option.amount.value));

    // The gateway's refusal of the fetch reaches the caller with its status and code, before the wallet is asked.
    const other = await shop.pay('700');
    const refused = payOption(gateway, other, option, () => Promise.reject(new Error('ran')));
    await expect(refused).rejects.toBeInstanceOf(FetchActionsError);
    await expect(refused).rejects.toMatchObject({ status: expect.any(Number), code: expect.any(String) });
  });
});
