import { WalletConnectPay, type WalletRpcAction } from '@walletconnect/pay';
import type { PrivateKeyAccount } from 'viem/accounts';
import { getAddress } from 'viem';
import { devnetRouterAddress } from '../../src/chain/nativeRouter';
import { balanceOf, chainClient, DEVNET_USDC, newBuyer, receiptOf } from '../support/chain';
import { ethAsset, ethShop, newEthBuyer, type EthShop } from '../support/native';
import { uniqueKey } from '../support/fixtures';
import { newUsdtBuyer, USDT, usdtShop, type UsdtShop } from '../support/permit2';
import { startTestService, type TestService } from '../support/service';
import { strictProvider, strictWallet } from '../support/strictWallet';

// The published @walletconnect/pay SDK (pinned in package.json), unchanged, pointed at this service by its
// `baseUrl` option: it finds the payment from our buyer link, reads the options, gets the actions and confirms.
// The wallet does what a public wallet's integration does with each action the SDK hands it: the params (the SDK
// gives them as the JSON text of the array) go, with the method, unchanged to its EIP-1193 provider, a strict
// one that refuses a transaction given as a string (tests/support/strictWallet.ts); the results go back, in order,
// to the SDK's confirmPayment.

jest.setTimeout(120_000);

/** A wallet: runs one of the SDK's walletRpc actions for the buyer through its strict provider; the result. */
async function runAction(buyer: PrivateKeyAccount, rpc: WalletRpcAction): Promise<string> {
  const params = JSON.parse(rpc.params) as unknown[];
  return strictWallet(strictProvider(buyer).provider)({ chain_id: rpc.chainId, method: rpc.method, params });
}

describe('the published @walletconnect/pay SDK, pointed at this service', () => {
  let svc: TestService;
  let shop: UsdtShop;
  let sdk: InstanceType<typeof WalletConnectPay>;

  beforeAll(async () => {
    svc = await startTestService();
    shop = await usdtShop(svc, 'WalletConnect Pay Shop', 'collector');
    // The preview version the SDK sends: straight to the service (a proxy validating the stable contract would refuse it).
    sdk = new WalletConnectPay({ apiKey: shop.walletKey, baseUrl: svc.directUrl, logger: 'silent' });
  });
  afterAll(() => svc.close());

  /** Creates a USD payment and pays it with the SDK in `asset`; the payment id, the actions' methods and the confirm's answer. */
  async function payWithSdk(buyer: PrivateKeyAccount, asset: string, value: string) {
    const created = await shop.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value } },
    });
    expect(created.status).toBe(201);
    const options = await sdk.getPaymentOptions({
      paymentLink: created.body.gatewayUrl,
      accounts: [`eip155:31337:${buyer.address}`],
      includePaymentInfo: true,
    });
    // The SDK keeps the link it was given as the payment's id (our options carry none); the service resolves it.
    expect(decodeURIComponent(options.paymentId)).toBe(created.body.gatewayUrl);
    expect(options.info).toMatchObject({ status: 'requires_action', merchant: { name: 'WalletConnect Pay Shop' } });
    const option = options.options.find((o) => o.amount.unit === `caip19/${asset}`);
    if (!option) throw new Error(`no ${asset} option in ${JSON.stringify(options.options)}`);
    const actions = await sdk.getRequiredPaymentActions({ paymentId: options.paymentId, optionId: option.id });
    const results: string[] = [];
    for (const action of actions) results.push(await runAction(buyer, action.walletRpc));
    const confirmed = await sdk.confirmPayment({ paymentId: options.paymentId, optionId: option.id, signatures: results });
    const done = await shop.until(created.body.paymentId, (d) => d.status === 'succeeded' && d.settlement?.successful !== undefined);
    const params = actions.map((a) => JSON.parse(a.walletRpc.params) as unknown[]);
    return {
      option,
      methods: actions.map((a) => a.walletRpc.method),
      params,
      confirmed,
      done,
      gatewayUrl: created.body.gatewayUrl as string,
    };
  }

  it('pays USDT through Permit2: the approve broadcast, then the permit signed; USDT moves', async () => {
    const buyer = await newUsdtBuyer(25_000_000n);
    const first = await payWithSdk(buyer, USDT, '1000');
    expect(first.option.amount).toMatchObject({ value: '10000000', display: { assetSymbol: 'USDT', decimals: 6 } });
    expect(first.methods).toEqual(['eth_sendTransaction', 'eth_signTypedData_v4']);
    // The SDK passes the approve on as the transaction object we sent, which the strict provider takes.
    expect(first.params[0]).toEqual([
      { from: buyer.address, to: expect.any(String), value: '0x0', data: expect.stringMatching(/^0x095ea7b3/) },
    ]);
    expect(first.confirmed.status).toMatch(/^(processing|succeeded)$/);
    expect({ status: first.done.status, amount: first.done.settlement.successful.amount }).toEqual({
      status: 'succeeded',
      amount: { unit: `caip19/${USDT}`, value: '10000000' },
    });
    expect((await receiptOf(first.done.info.txId)).status).toBe('success');
    expect(await balanceOf(buyer.address, 'USDT')).toBe(15_000_000n);
    expect(await balanceOf(shop.wallet, 'USDT')).toBe(10_000_000n);

    // Permit2 is approved now: the SDK hands over the signature alone.
    const second = await payWithSdk(buyer, USDT, '500');
    expect(second.methods).toEqual(['eth_signTypedData_v4']);
    expect(second.done.status).toBe('succeeded');
    expect(await balanceOf(buyer.address, 'USDT')).toBe(10_000_000n);
    expect(await balanceOf(shop.wallet, 'USDT')).toBe(15_000_000n);
  });

  it('surfaces a refusal (the approve skipped) as its error, with nothing moved and the payment payable', async () => {
    const buyer = await newUsdtBuyer(2_000_000n);
    const created = await shop.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '200' } },
    });
    const options = await sdk.getPaymentOptions({ paymentLink: created.body.gatewayUrl, accounts: [`eip155:31337:${buyer.address}`] });
    const option = options.options.find((o) => o.amount.unit === `caip19/${USDT}`)!;
    const actions = await sdk.getRequiredPaymentActions({ paymentId: options.paymentId, optionId: option.id });
    const signature = await runAction(buyer, actions[1].walletRpc);
    // The SDK reports any 422 as its own "Invalid signature: 422" and drops our code; the same confirm over HTTP shows it.
    await expect(sdk.confirmPayment({ paymentId: options.paymentId, optionId: option.id, signatures: [signature] })).rejects.toThrow(/422/);
    const plain = await shop.confirm(created.body.paymentId, option.id, [[signature]]);
    expect({ status: plain.status, code: plain.body.code }).toEqual({ status: 422, code: 'allowance_insufficient' });
    expect((await shop.details(created.body.paymentId)).status).toBe('requires_action');
    expect(await svc.db('chain_transactions').where({ payment_id: created.body.paymentId })).toHaveLength(0);
    expect(await balanceOf(buyer.address, 'USDT')).toBe(2_000_000n);
  });

  it('pays USDC through EIP-3009: one signature; USDC moves', async () => {
    const buyer = await newBuyer(7_000_000n);
    const paid = await payWithSdk(buyer, DEVNET_USDC, '700');
    expect(paid.methods).toEqual(['eth_signTypedData_v4']);
    expect(paid.done.status).toBe('succeeded');
    expect((await receiptOf(paid.done.info.txId)).status).toBe('success');
    expect(await balanceOf(buyer.address, 'USDC')).toBe(0n);
    expect(await balanceOf(shop.wallet, 'USDC')).toBe(7_000_000n);
  });

  it('a final payment: the SDK resolves with its status and no option (its "already paid" screen), not an error', async () => {
    const buyer = await newBuyer(1_000_000n);
    const paid = await payWithSdk(buyer, DEVNET_USDC, '100');
    const cancelled = await shop.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '100' } },
    });
    expect((await shop.asMerchant('POST', `/v1/payments/${cancelled.body.paymentId}/cancel`)).status).toBe(200);
    for (const [link, status] of [
      [paid.gatewayUrl, 'succeeded'],
      [cancelled.body.gatewayUrl, 'cancelled'],
    ])
      for (const includePaymentInfo of [true, false]) {
        // The service answers options null; the SDK hands the wallet [] beside the payment's status.
        const o = await sdk.getPaymentOptions({ paymentLink: link, accounts: [`eip155:31337:${buyer.address}`], includePaymentInfo });
        expect({ status: o.info?.status, options: o.options }).toEqual({ status, options: [] });
      }
  });
});

describe('the published @walletconnect/pay SDK pays an ETH option (issue 49)', () => {
  let svc: TestService;
  let shop: EthShop;
  let sdk: InstanceType<typeof WalletConnectPay>;

  beforeAll(async () => {
    svc = await startTestService();
    shop = await ethShop(svc, 'WalletConnect Pay ETH Shop', 'direct');
    sdk = new WalletConnectPay({ apiKey: shop.walletKey, baseUrl: svc.directUrl, logger: 'silent' });
  });
  afterAll(() => svc.close());

  it("follows the option's build action to one eth_sendTransaction; the wallet's hash confirms it; ETH moves", async () => {
    const buyer = await newEthBuyer();
    const created = await shop.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '1500' } },
    });
    const options = await sdk.getPaymentOptions({ paymentLink: created.body.gatewayUrl, accounts: [`eip155:31337:${buyer.address}`] });
    const option = options.options.find((o) => o.amount.unit === `caip19/${ethAsset()}`);
    if (!option) throw new Error(`no ETH option in ${JSON.stringify(options.options)}`);
    expect(option.amount.display).toMatchObject({ assetSymbol: 'ETH', decimals: 18 });
    const actions = await sdk.getRequiredPaymentActions({ paymentId: options.paymentId, optionId: option.id });
    expect(actions.map((a) => a.walletRpc.method)).toEqual(['eth_sendTransaction']);
    const [tx] = JSON.parse(actions[0].walletRpc.params) as { to: string; value: string }[];
    expect({ to: tx.to, value: BigInt(tx.value) }).toEqual({ to: devnetRouterAddress, value: BigInt(option.amount.value) });
    const before = await chainClient().getBalance({ address: getAddress(shop.wallet) });
    const hash = await runAction(buyer, actions[0].walletRpc);
    const confirmed = await sdk.confirmPayment({ paymentId: options.paymentId, optionId: option.id, signatures: [hash] });
    expect(confirmed.status).toMatch(/^(processing|succeeded)$/);
    const done = await shop.until(created.body.paymentId, (d) => d.status === 'succeeded');
    expect(done.info.txId).toBe(hash);
    expect((await chainClient().getBalance({ address: getAddress(shop.wallet) })) - before).toBe(BigInt(option.amount.value));
  });
});
