import { encodeFunctionData, getAddress, maxUint256, parseAbi, serializeErc6492Signature, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { PERMIT2_ADDRESS } from '../../src/domain/permit2';
import { chainClient, DEVNET_USDC, fund, USDC_TOKEN } from '../support/chain';
import { usdtShop, type UsdtShop } from '../support/permit2';
import { startRpcProxy } from '../support/rpcProxy';
import { startTestService, type TestService } from '../support/service';
import { CREATE2_FACTORY, newSmartWallet } from '../support/smartWallet';

// What a buyer's signature may make the relayer do (security review): an ERC-6492 signature's factory call is sent
// from the relayer's key, so it must never be a call where the relayer's own authority counts (the token it holds,
// Permit2, a relayer). The wallet below exists, but the node the service asks says it has no code yet (a node that
// lags, or one whose `pending` block holds the wallet's deployment while `latest` does not), as a buyer can arrange.

jest.setTimeout(120_000);

const ERC20 = parseAbi(['function approve(address spender, uint256 value)', 'function allowance(address, address) view returns (uint256)']);

describe("the relayer's authority", () => {
  let svc: TestService;
  let shop: UsdtShop;
  let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
  beforeAll(async () => {
    proxy = await startRpcProxy(process.env.DEVNET_RPC_URL!);
    svc = await startTestService({ DEVNET_RPC_URL: proxy.url });
    shop = await usdtShop(svc, 'Authority Shop', 'collector');
  });
  afterAll(async () => {
    await svc?.close();
    await proxy?.close();
  });

  /** A deployed wallet the node hides, its USDC option, and a wrapped signature whose "factory call" is `to`, `data`. */
  async function wrappedPayment(to: (relayer: Address) => Address, data: (relayer: Address, thief: Address) => Hex) {
    const wallet = newSmartWallet();
    await fund(wallet.address, 10_000_000n);
    await wallet.deployAndExecute(USDC_TOKEN, encodeFunctionData({ abi: ERC20, functionName: 'approve', args: [CREATE2_FACTORY, 0n] }));
    proxy.hide((method, _r, params) => method === 'eth_getCode' && getAddress(params[0] as string) === wallet.address);
    const id = await shop.pay('1000');
    const { all } = await shop.usdtOption(id, { address: wallet.address } as PrivateKeyAccount);
    const opt = all.find((o: any) => o.amount.unit === `caip19/${DEVNET_USDC}`);
    const td = JSON.parse(opt.actions[0].data.params[1]);
    const relayer = getAddress(td.message.to);
    const thief = privateKeyToAccount(generatePrivateKey()).address;
    const inner = await wallet.signTypedData(td, { wrapped: false });
    const sig = serializeErc6492Signature({ address: to(relayer), data: data(relayer, thief), signature: inner });
    return { id, opt, sig, relayer, thief };
  }

  it("a wrapped signature whose factory call is the token's approve is refused 422; the relayer approves nothing", async () => {
    const approve = (_: Address, thief: Address) => encodeFunctionData({ abi: ERC20, functionName: 'approve', args: [thief, maxUint256] });
    const { id, opt, sig, relayer, thief } = await wrappedPayment(() => USDC_TOKEN, approve);
    const r = await shop.confirm(id, opt.id, [[sig]]);
    if (r.status === 200) await shop.until(id, (x) => x.status !== 'processing');
    const allowance = await chainClient().readContract({
      address: USDC_TOKEN,
      abi: ERC20,
      functionName: 'allowance',
      args: [relayer, thief],
    });
    expect({ status: r.status, code: r.body.code, allowance }).toEqual({ status: 422, code: 'invalid_signature', allowance: 0n });
    expect(await svc.db('chain_transactions').where({ payment_id: id })).toEqual([]);
  });

  it('a factory call to Permit2 or to a relayer key is refused 422 too; nothing is sent', async () => {
    const lockdown = encodeFunctionData({
      abi: parseAbi(['function lockdown((address,address)[])']),
      functionName: 'lockdown',
      args: [[]],
    });
    for (const to of [() => PERMIT2_ADDRESS, (relayer: Address) => relayer]) {
      const { id, opt, sig } = await wrappedPayment(to, () => lockdown);
      const r = await shop.confirm(id, opt.id, [[sig]]);
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 422, code: 'invalid_signature' });
      expect(await svc.db('chain_transactions').where({ payment_id: id })).toEqual([]);
    }
  });
});
