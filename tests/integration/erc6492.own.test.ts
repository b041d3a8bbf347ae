import { encodeFunctionData, getAddress, maxUint256, parseAbi, toFunctionSelector } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { PERMIT2_ADDRESS } from '../../src/domain/permit2';
import { balanceOf, DEVNET_USDC, fund, USDC_TOKEN } from '../support/chain';
import { transactionOf, USDT, usdtShop, type UsdtShop } from '../support/permit2';
import { startTestService, type TestService } from '../support/service';
import { CREATE2_FACTORY, newSmartWallet, type SmartWallet } from '../support/smartWallet';

// Smart-contract wallets that sign before they exist (ERC-6492, issue 29): a wallet deployed through a CREATE2
// factory signs with its owner's key and wraps the signature with the factory call. Confirm checks it with the
// universal validator and simulates the deployment then the transfer; the relayer deploys the wallet (under its own
// nonce, in the same commit as the transfer) and submits the transfer with the wallet's inner signature. A Permit2
// payment needs the wallet's approve first, which deploys it: then the relayer has nothing to deploy.

jest.setTimeout(120_000);

const APPROVE_ABI = parseAbi(['function approve(address spender, uint256 value)']);

describe('ERC-6492 signers', () => {
  let svc: TestService;
  let shop: UsdtShop;
  beforeAll(async () => {
    svc = await startTestService();
    shop = await usdtShop(svc, 'Counterfactual Shop', 'collector');
  });
  afterAll(() => svc.close());

  /** The payment's option in `unit` for the wallet's account. */
  async function optionFor(id: string, wallet: SmartWallet, unit: string) {
    const { all } = await shop.usdtOption(id, { address: wallet.address } as PrivateKeyAccount);
    const opt = all.find((o: any) => o.amount.unit === `caip19/${unit}`);
    return { opt, actions: opt.actions as { data: { method: string; params: any[] } }[] };
  }
  const chainTxs = async (id: string) =>
    (await svc.db('chain_transactions').where({ payment_id: id }).orderBy('nonce')).map((t) => [
      t.purpose,
      t.status,
      getAddress(t.to_address),
    ]);

  it('a wallet not deployed yet pays USDC: the relayer deploys it, then submits the transfer; tokens move', async () => {
    const wallet = newSmartWallet();
    await fund(wallet.address, 12_000_000n);
    const id = await shop.pay('1000');
    const { opt, actions } = await optionFor(id, wallet, DEVNET_USDC);
    expect(actions.map((a) => a.data.method)).toEqual(['eth_signTypedData_v4']);
    const sig = await wallet.signTypedData(JSON.parse(actions[0].data.params[1]));
    expect(sig.endsWith('6492'.repeat(16))).toBe(true);
    const r = await shop.confirm(id, opt.id, [[sig]]);
    expect({ status: r.status, body: r.body.status }).toEqual({ status: 200, body: 'processing' });
    const d = await shop.until(id, (x) => x.status === 'succeeded' && x.settlement !== null);
    expect(d.status).toBe('succeeded');
    expect(await wallet.hasCode()).toBe(true);
    expect(await balanceOf(wallet.address)).toBe(2_000_000n);
    expect(await balanceOf(shop.wallet)).toBe(10_000_000n);
    // The deployment, then the collect (the token checked the wallet's ERC-1271 answer), then the settlement.
    expect(await chainTxs(id)).toEqual([
      ['deploy', 'confirmed', CREATE2_FACTORY],
      ['collect', 'confirmed', USDC_TOKEN],
      ['settle', 'confirmed', USDC_TOKEN],
    ]);
  });

  it('direct mode: transferWithAuthorization in its bytes form, after the deployment; USDC goes straight to the merchant', async () => {
    const direct = await usdtShop(svc, 'Counterfactual Direct Shop', 'direct');
    const wallet = newSmartWallet();
    await fund(wallet.address, 5_000_000n);
    const id = await direct.pay('500');
    const { all } = await direct.usdtOption(id, { address: wallet.address } as PrivateKeyAccount);
    const opt = all.find((o: any) => o.amount.unit === `caip19/${DEVNET_USDC}`);
    const td = JSON.parse(opt.actions[0].data.params[1]);
    expect(td.primaryType).toBe('TransferWithAuthorization');
    const r = await direct.confirm(id, opt.id, [[await wallet.signTypedData(td)]]);
    expect({ status: r.status, body: r.body.status }).toEqual({ status: 200, body: 'processing' });
    expect((await direct.until(id, (x) => x.status !== 'processing')).status).toBe('succeeded');
    expect([await balanceOf(wallet.address), await balanceOf(direct.wallet)]).toEqual([0n, 5_000_000n]);
    const txs = await svc.db('chain_transactions').where({ payment_id: id }).orderBy('nonce');
    expect(txs.map((t) => [t.purpose, t.status])).toEqual([
      ['deploy', 'confirmed'],
      ['direct', 'confirmed'],
    ]);
    // The bytes form (selector of transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)).
    expect(txs[1].calldata.slice(0, 10)).toBe(
      toFunctionSelector('transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)'),
    );
  });

  it("a signature by another key than the wallet's owner is refused 422 invalid_signature; nothing moves", async () => {
    const wallet = newSmartWallet();
    await fund(wallet.address, 10_000_000n);
    const id = await shop.pay('1000');
    const { opt, actions } = await optionFor(id, wallet, DEVNET_USDC);
    const stranger = privateKeyToAccount(generatePrivateKey());
    const sig = await wallet.signTypedData(JSON.parse(actions[0].data.params[1]), { by: stranger });
    const r = await shop.confirm(id, opt.id, [[sig]]);
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 422, code: 'invalid_signature' });
    expect((await svc.db('payments').where({ id }).first()).status).toBe('requires_action');
    expect(await chainTxs(id)).toEqual([]);
    expect([await wallet.hasCode(), await balanceOf(wallet.address)]).toEqual([false, 10_000_000n]);
  });

  it('USDT through Permit2: the approve comes first (it deploys the wallet); a wrapped signature then pays', async () => {
    const wallet = newSmartWallet();
    await fund(wallet.address, 8_000_000n, 'USDT');
    const id = await shop.pay('500');
    const { opt, actions } = await optionFor(id, wallet, USDT);
    expect(actions.map((a) => a.data.method)).toEqual(['eth_sendTransaction', 'eth_signTypedData_v4']);
    const td = JSON.parse(actions[1].data.params[1]);
    const sig = await wallet.signTypedData(td);
    // Without the approve, confirm says what is missing (an undeployed wallet has no allowance); nothing moves.
    const early = await shop.confirm(id, opt.id, [[sig]]);
    expect({ status: early.status, code: early.body.code }).toEqual({ status: 422, code: 'allowance_insufficient' });
    expect([await wallet.hasCode(), await chainTxs(id)]).toEqual([false, []]);

    const approve = transactionOf(actions[0].data.params[0]);
    expect(approve.data).toBe(encodeFunctionData({ abi: APPROVE_ABI, functionName: 'approve', args: [PERMIT2_ADDRESS, maxUint256] }));
    const approveTx = await wallet.deployAndExecute(getAddress(approve.to), approve.data);
    const r = await shop.confirm(id, opt.id, [[approveTx], [sig]]);
    expect({ status: r.status, body: r.body.status }).toEqual({ status: 200, body: 'processing' });
    const d = await shop.until(id, (x) => x.status === 'succeeded' && x.settlement !== null);
    expect(d.status).toBe('succeeded');
    expect(await balanceOf(wallet.address, 'USDT')).toBe(3_000_000n);
    expect(await balanceOf(shop.wallet, 'USDT')).toBe(5_000_000n);
    // Deployed already: nothing to deploy; Permit2 checked the inner signature with the wallet's ERC-1271.
    expect(await chainTxs(id)).toEqual([
      ['collect', 'confirmed', PERMIT2_ADDRESS],
      ['settle', 'confirmed', getAddress(USDT.split(':').pop()!)],
    ]);
  });
});
