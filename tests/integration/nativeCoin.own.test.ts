import { createWalletClient, decodeFunctionData, getAddress, http, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { devnetChain } from '../../src/chain/devnet';
import { DEVNET_CHAIN_ID } from '../../src/chain/devnetChains';
import { devnetSetPrice, devnetSetRound } from '../../src/chain/devnetNative';
import { devnetRouterAddress, paymentRef, ROUTER_ABI } from '../../src/chain/nativeRouter';
import { devnetFeedAddress, readFeed } from '../../src/chain/priceFeed';
import { chainClient, DEVNET2_CHAIN_ID, rpcUrl } from '../support/chain';
import { ethAsset, ethShop, newEthBuyer, type EthShop } from '../support/native';
import { generatePrivateKey } from 'viem/accounts';
import { client, startTestService, type TestService } from '../support/service';
import { strictProvider, strictWallet } from '../support/strictWallet';

// Paying in the chain's own coin (issue 49), through HTTP as a wallet does: the options price ETH from the chain's
// feed, the build action is fetched into one eth_sendTransaction to the router, a strict EIP-1193 wallet sends it
// unchanged, confirm takes its hash; balances are read from the chain. The price-moving cases run on the second
// development chain, whose feeds no other test file moves.

jest.setTimeout(120_000);

const wei = (minor: bigint, answer: bigint) => {
  // USD 2 decimals, feed 8 decimals, ETH 18: ceil(minor * 10^18 * 10^8 / (answer * 10^2)), written out here.
  const num = minor * 10n ** 24n;
  const den = answer;
  return (num + den - 1n) / den;
};

const feedAnswer = async (chainId: number, currency = 'USD') =>
  (await readFeed(chainClient(chainId) as never, devnetFeedAddress(currency)!)).answer;

/** A raw transaction of the buyer's, sent and mined (status not asserted); its hash. */
async function sendRaw(buyer: PrivateKeyAccount, tx: { to: Hex; value: bigint; data: Hex }, chainId = DEVNET_CHAIN_ID): Promise<Hex> {
  const url = rpcUrl(chainId);
  const wallet = createWalletClient({ chain: devnetChain(url, chainId), transport: http(url), account: buyer });
  const hash = await wallet.sendTransaction({ ...tx, gas: 100_000n });
  await chainClient(chainId).waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return hash;
}

describe('native coin (ETH) options', () => {
  let svc: TestService;
  let shop: EthShop;

  beforeAll(async () => {
    svc = await startTestService();
    shop = await ethShop(svc, 'ETH Shop', 'direct', [DEVNET_CHAIN_ID, DEVNET2_CHAIN_ID]);
  });
  afterAll(() => svc.close());

  it('a buyer holding only ETH pays a USD payment with a strict EIP-1193 wallet; the merchant receives exactly the quote', async () => {
    const buyer = await newEthBuyer();
    const id = await shop.pay('1000');
    const { opt } = await shop.ethOption(id, buyer);
    const answer = await feedAnswer(DEVNET_CHAIN_ID);
    expect(opt).toBeDefined();
    expect(opt!.amount).toEqual({
      unit: `caip19/${ethAsset()}`,
      value: wei(1000n, answer).toString(),
      display: expect.objectContaining({ assetSymbol: 'ETH', decimals: 18 }),
    });
    expect(opt!.actions).toEqual([{ type: 'build', data: { data: 'native' } }]);
    const fetched = await shop.fetchActions(id, opt!.id);
    expect(fetched.status).toBe(200);
    const [action] = fetched.body.actions;
    expect(action).toMatchObject({ type: 'walletRpc', data: { chain_id: 'eip155:31337', method: 'eth_sendTransaction' } });
    const tx = action.data.params[0];
    expect(tx).toEqual({
      from: buyer.address,
      to: devnetRouterAddress,
      value: `0x${wei(1000n, answer).toString(16)}`,
      data: expect.any(String),
    });
    const call = decodeFunctionData({ abi: ROUTER_ABI, data: tx.data });
    expect(call.args).toEqual([paymentRef(id), getAddress(shop.wallet), wei(1000n, answer), expect.any(BigInt)]);

    const pub = chainClient();
    const [buyerBefore, merchantBefore] = await Promise.all([
      pub.getBalance({ address: buyer.address }),
      pub.getBalance({ address: getAddress(shop.wallet) }),
    ]);
    const { provider, asked } = strictProvider(buyer);
    const hash = await strictWallet(provider)(action.data);
    expect(asked[0]).toEqual({ method: 'eth_sendTransaction', params: [tx] });
    const confirmed = await shop.confirm(id, opt!.id, [[hash]]);
    expect(confirmed.status).toBe(200);
    const done = await shop.until(id, (d) => d.status === 'succeeded');
    expect(done).toMatchObject({ status: 'succeeded' });
    const receipt = await pub.getTransactionReceipt({ hash: hash as Hex });
    const [buyerAfter, merchantAfter] = await Promise.all([
      pub.getBalance({ address: buyer.address }),
      pub.getBalance({ address: getAddress(shop.wallet) }),
    ]);
    expect(merchantAfter - merchantBefore).toBe(wei(1000n, answer));
    expect(buyerBefore - buyerAfter).toBe(wei(1000n, answer) + receipt.gasUsed * receipt.effectiveGasPrice);
  });

  it('a second transaction for the same payment reverts on chain (nothing lost but gas); the payment is paid once', async () => {
    const buyer = await newEthBuyer();
    const id = await shop.pay('250');
    const { opt } = await shop.ethOption(id, buyer);
    const [action] = (await shop.fetchActions(id, opt!.id)).body.actions;
    const hash = await strictWallet(strictProvider(buyer).provider)(action.data);
    expect((await shop.confirm(id, opt!.id, [[hash]])).status).toBe(200);
    const merchantBefore = await chainClient().getBalance({ address: getAddress(shop.wallet) });
    const p = action.data.params[0];
    const again = await sendRaw(buyer, { to: p.to, value: BigInt(p.value), data: p.data });
    expect((await chainClient().getTransactionReceipt({ hash: again })).status).toBe('reverted');
    expect(await chainClient().getBalance({ address: getAddress(shop.wallet) })).toBe(merchantBefore);
    // Confirm again with the reverted one: the payment answers its state, still paid by the first.
    expect((await shop.confirm(id, opt!.id, [[again]])).body.status).toMatch(/processing|succeeded/);
    const done = await shop.until(id, (d) => d.status === 'succeeded');
    expect(done.status).toBe('succeeded');
  });

  it('an underpaying or overpaying transaction reverts at the router and confirm refuses it; the payment stays payable', async () => {
    const buyer = await newEthBuyer();
    const id = await shop.pay('300');
    const { opt } = await shop.ethOption(id, buyer);
    const p = (await shop.fetchActions(id, opt!.id)).body.actions[0].data.params[0];
    const merchantBefore = await chainClient().getBalance({ address: getAddress(shop.wallet) });
    for (const value of [BigInt(p.value) - 1n, BigInt(p.value) + 1n]) {
      const hash = await sendRaw(buyer, { to: p.to, value, data: p.data });
      expect((await chainClient().getTransactionReceipt({ hash })).status).toBe('reverted');
      const r = await shop.confirm(id, opt!.id, [[hash]]);
      expect([r.status, r.body.code]).toEqual([422, 'transaction_mismatch']);
    }
    expect(await chainClient().getBalance({ address: getAddress(shop.wallet) })).toBe(merchantBefore);
    // A transaction to another address, an unknown hash: refused; then the right one pays.
    const other = await sendRaw(buyer, { to: getAddress(shop.wallet), value: BigInt(p.value), data: '0x' });
    expect((await shop.confirm(id, opt!.id, [[other]])).body.code).toBe('transaction_mismatch');
    const unknown = await shop.confirm(id, opt!.id, [[`0x${'ab'.repeat(32)}`]]);
    expect([unknown.status, unknown.body.code, unknown.headers.get('retry-after')]).toEqual([409, 'transaction_not_found', '2']);
    expect((await shop.details(id)).status).toBe('requires_action');
    const hash = await sendRaw(buyer, { to: p.to, value: BigInt(p.value), data: p.data });
    expect((await shop.confirm(id, opt!.id, [[hash]])).status).toBe(200);
    expect((await shop.until(id, (d) => d.status === 'succeeded')).status).toBe('succeeded');
  });

  it("a stale feed round offers no ETH option and refuses a quoted one's fetch (409 price_stale)", async () => {
    const chainId = DEVNET2_CHAIN_ID;
    const buyer = await newEthBuyer(chainId);
    const id = await shop.pay('500');
    const { opt } = await shop.ethOption(id, buyer, chainId);
    expect(opt).toBeDefined();
    const answer = await feedAnswer(chainId);
    const round = (await readFeed(chainClient(chainId) as never, devnetFeedAddress('USD')!)).roundId;
    await devnetSetRound(rpcUrl(chainId), 'USD', { roundId: round + 1n, answer, updatedAt: 1n });
    try {
      const r = await shop.fetchActions(id, opt!.id);
      expect([r.status, r.body.code]).toEqual([409, 'price_stale']);
      const again = await shop.ethOption(id, buyer, chainId);
      expect(again.opt).toBeUndefined();
      expect(again.all).toEqual([]); // the merchant settles only ETH on this chain
    } finally {
      await devnetSetPrice(rpcUrl(chainId), 'USD', answer);
    }
    expect((await shop.ethOption(id, buyer, chainId)).opt).toBeDefined();
  });

  it('a price moved beyond the tolerance refuses fetch (409 price_moved); a move within it keeps the quoted amount', async () => {
    const chainId = DEVNET2_CHAIN_ID;
    const buyer = await newEthBuyer(chainId);
    const id = await shop.pay('500');
    const answer = await feedAnswer(chainId);
    const { opt } = await shop.ethOption(id, buyer, chainId);
    try {
      await devnetSetPrice(rpcUrl(chainId), 'USD', answer + answer / 2000n); // +0.05%
      const within = await shop.fetchActions(id, opt!.id);
      expect(within.status).toBe(200);
      expect(BigInt(within.body.actions[0].data.params[0].value)).toBe(wei(500n, answer));
      await devnetSetPrice(rpcUrl(chainId), 'USD', answer - answer / 20n); // -5%
      const moved = await shop.fetchActions(id, opt!.id);
      expect([moved.status, moved.body.code]).toEqual([409, 'price_moved']);
      // A fresh quote is priced at the new round.
      const fresh = await shop.ethOption(id, buyer, chainId);
      expect(BigInt(fresh.opt!.amount.value)).toBe(wei(500n, answer - answer / 20n));
    } finally {
      await devnetSetPrice(rpcUrl(chainId), 'USD', answer);
    }
  });

  it('a configured chain (CHAINS) offers ETH where CHAIN_<id>_NATIVE_ROUTER and _NATIVE_FEEDS name its router and feed', async () => {
    // The first development chain, configured as an operator configures a real one (its feed's round refreshed: 1 h heartbeat).
    await devnetSetPrice(rpcUrl(), 'USD', await feedAnswer(DEVNET_CHAIN_ID));
    const env = {
      CHAINS: '31337',
      CHAIN_31337_RPC_URL: rpcUrl(),
      CHAIN_31337_RELAYER_KEYS: generatePrivateKey(),
      CHAIN_31337_MAX_FEE_PER_GAS_WEI: '100000000000',
      TEST_MODE: 'off',
    };
    const real = await startTestService({
      ...env,
      CHAIN_31337_NATIVE_ROUTER: devnetRouterAddress,
      CHAIN_31337_NATIVE_FEEDS: `USD:${devnetFeedAddress('USD')}:3600`,
    });
    const buyer = await newEthBuyer();
    try {
      const id = await shop.pay('700');
      const o = await client(real.url, { 'Api-Key': shop.walletKey })('POST', `/v1/gateway/payment/${id}/options`, {
        body: { accounts: [`eip155:31337:${buyer.address}`] },
      });
      const eth = o.body.options.find((x: any) => x.amount.unit === `caip19/${ethAsset()}`);
      expect(eth?.amount.value).toBe(wei(700n, await feedAnswer(DEVNET_CHAIN_ID)).toString());
      // EUR has no feed there: a EUR payment is offered no ETH.
      const eur = await shop.pay('700', 'EUR');
      const e = await client(real.url, { 'Api-Key': shop.walletKey })('POST', `/v1/gateway/payment/${eur}/options`, {
        body: { accounts: [`eip155:31337:${buyer.address}`] },
      });
      expect(e.body.options.filter((x: any) => x.amount.unit === `caip19/${ethAsset()}`)).toEqual([]);
    } finally {
      await real.close();
    }
  });

  it('a collector-mode account is offered ETH beside its tokens: the router pays the collector, not the merchant', async () => {
    const collector = await ethShop(svc, 'ETH Collector Shop', 'collector');
    const buyer = await newEthBuyer();
    const id = await collector.pay('100');
    const { all, opt } = await collector.ethOption(id, buyer);
    expect(opt).toBeDefined();
    expect(all.some((o) => o.amount.unit.includes('/erc20:'))).toBe(true);
    const tx = (await collector.fetchActions(id, opt!.id)).body.actions[0].data.params[0];
    const call = decodeFunctionData({ abi: ROUTER_ABI, data: tx.data });
    // Settled onward, refunded and booked in the ledger: tests/integration/nativeCollector.own.test.ts.
    expect(call.args[1]).not.toBe(getAddress(collector.wallet));
  });
});
