import { createWalletClient, encodeFunctionData, http, pad, parseAbi, parseGwei, type Address, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { devnetChain, devnetTokenAddress } from '../../src/chain/devnet';
import { PERMIT2_ADDRESS } from '../../src/domain/permit2';
import { anvil, balanceOf, chainClient, fund, newWallet, rpcUrl, useOwnChain } from '../support/chain';
import { eventually } from '../support/eventually';
import { useOwnDatabase } from '../support/freshDb';
import { newUsdtBuyer, sendAction, signOf, transactionOf, USDT, usdtShop, type UsdtShop } from '../support/permit2';
import { startTestService, type TestService } from '../support/service';

// A permit confirmed and submitted that then fails on chain: the buyer revokes the allowance, moves the balance or
// uses the nonce elsewhere, in a transaction mined ahead of the relayer's. The payment ends failed with the
// failure code the chain's state gives, never stuck in processing, and nothing moved to the merchant.

// Automine off: on a chain and a database of this file's own.
useOwnChain();
useOwnDatabase('paygate_permit2');
jest.setTimeout(120_000);

const USDT_TOKEN = devnetTokenAddress('USDT');
const ABI = parseAbi([
  'function approve(address spender, uint256 value)',
  'function transfer(address to, uint256 value)',
  'function invalidateUnorderedNonces(uint256 wordPos, uint256 mask)',
]);

/** Sent by the buyer with a priority fee above the relayer's: mined first in the next block. */
function ahead(buyer: PrivateKeyAccount, to: Address, data: Hex): Promise<Hex> {
  const wallet = createWalletClient({ chain: devnetChain(rpcUrl()), transport: http(rpcUrl()), account: buyer });
  return wallet.sendTransaction({ to, data, gas: 100_000n, maxFeePerGas: parseGwei('500'), maxPriorityFeePerGas: parseGwei('100') });
}

describe('a Permit2 payment that fails on chain after confirm', () => {
  let svc: TestService;
  let shop: UsdtShop;

  beforeAll(async () => {
    svc = await startTestService();
    shop = await usdtShop(svc, 'USDT Failing Shop', 'collector');
  });
  afterAll(async () => {
    await anvil().setAutomine(true);
    await svc.close();
  });

  const cases: [string, string, (buyer: PrivateKeyAccount, nonce: bigint) => Promise<Hex>][] = [
    [
      'allowance revoked',
      'allowance_insufficient',
      (b) => ahead(b, USDT_TOKEN, encodeFunctionData({ abi: ABI, functionName: 'approve', args: [PERMIT2_ADDRESS, 0n] })),
    ],
    [
      'balance moved',
      'insufficient_funds',
      (b) => ahead(b, USDT_TOKEN, encodeFunctionData({ abi: ABI, functionName: 'transfer', args: [newWallet(), 1n] })),
    ],
    [
      'nonce used elsewhere',
      'authorization_used',
      (b, n) =>
        ahead(
          b,
          PERMIT2_ADDRESS,
          encodeFunctionData({ abi: ABI, functionName: 'invalidateUnorderedNonces', args: [n >> 8n, 1n << (n & 255n)] }),
        ),
    ],
  ];

  it.each(cases)('%s: the payment ends failed with %s, nothing moved', async (_what, failureCode, spoil) => {
    const buyer = await newUsdtBuyer(10_000_000n);
    const id = await shop.pay('1000');
    const { opt, actions } = await shop.usdtOption(id, buyer);
    await sendAction(buyer, actions[0].data.params[0]);
    expect(actions[1].data.params[1]).toContain('"primaryType":"PermitTransferFrom"');
    const nonce = BigInt(JSON.parse(actions[1].data.params[1]).message.nonce);
    const sig = await signOf(buyer, actions[1]);
    await anvil().setAutomine(false);
    try {
      expect((await shop.confirm(id, opt.id, [[sig]])).body.status).toBe('processing');
      expect(await waitBroadcast(id)).toBeTruthy();
      await spoil(buyer, nonce);
      // Blocks until the outcome is final (the confirmation depth, and a permit used elsewhere proven at it).
      const d = await mineUntil(
        () => shop.details(id),
        (x) => x.status === 'failed',
      );
      expect({ status: d.status, failureCode: d.failureCode }).toEqual({ status: 'failed', failureCode });
      const txs = await svc.db('chain_transactions').where({ payment_id: id });
      expect(txs.map((t) => [t.purpose, t.status])).toEqual([['collect', 'reverted']]);
      expect(await balanceOf(shop.wallet, 'USDT')).toBe(0n);
    } finally {
      await anvil().setAutomine(true);
    }
  });

  it('an approve still pending at confirm is 409 approval_pending with Retry-After; once mined, the same results pay', async () => {
    const buyer = await newUsdtBuyer(10_000_000n);
    const id = await shop.pay('1000');
    const { opt, actions } = await shop.usdtOption(id, buyer);
    await anvil().setAutomine(false);
    try {
      const approveTx = await sendAction(buyer, actions[0].data.params[0], undefined, false);
      const results = [[approveTx], [await signOf(buyer, actions[1])]];
      const pending = await shop.confirm(id, opt.id, results);
      expect({ status: pending.status, code: pending.body.code }).toEqual({ status: 409, code: 'approval_pending' });
      expect(pending.headers.get('retry-after')).toBe('2');
      expect((await svc.db('payments').where({ id }).first()).status).toBe('requires_action');
      await anvil().mine({ blocks: 1 });
      expect((await shop.confirm(id, opt.id, results)).body.status).toBe('processing');
      const d = await mineUntil(
        () => shop.details(id),
        (x) => x.status === 'succeeded' && x.settlement !== null,
      );
      expect({ status: d.status, settled: d.settlement !== null }).toEqual({ status: 'succeeded', settled: true });
      expect(await balanceOf(buyer.address, 'USDT')).toBe(0n);
    } finally {
      await anvil().setAutomine(true);
    }
  });

  it('a smart-contract wallet (ERC-1271) pays by Permit2; one that answers invalid is refused with nothing moved', async () => {
    // Returns ERC-1271's valid word when its slot 0 is 0 (or tx.gasprice is 0), a zero word otherwise.
    const WALLET_CODE: Hex = '0x3a156011576000541560115760206000f35b631626ba7e60e01b60005260206000f3';
    const wallet = newWallet();
    await anvil().setCode({ address: wallet, bytecode: WALLET_CODE });
    await anvil().setBalance({ address: wallet, value: 10n ** 18n });
    await fund(wallet, 20_000_000n, 'USDT');
    const id = await shop.pay('1000');
    const o = await shop.gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [`eip155:31337:${wallet}`] } });
    const opt = o.body.options.find((x: any) => x.amount.unit === `caip19/${USDT}`);
    // The contract approves Permit2 as its owner would make it (impersonated: it has no key).
    const approve = transactionOf(opt.actions[0].data.params[0]);
    await anvil().impersonateAccount({ address: wallet });
    const hash = await chainClient().request({ method: 'eth_sendTransaction', params: [{ ...approve, gas: '0x186a0' }] } as never);
    await anvil().stopImpersonatingAccount({ address: wallet });
    expect((await chainClient().waitForTransactionReceipt({ hash: hash as Hex })).status).toBe('success');
    const signature = `0x${'ab'.repeat(80)}`;

    await anvil().setStorageAt({ address: wallet, index: 0, value: pad('0x01') });
    const refused = await shop.confirm(id, opt.id, [[signature]]);
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 422, code: 'invalid_signature' });
    expect(await svc.db('chain_transactions').where({ payment_id: id })).toHaveLength(0);
    expect(await balanceOf(wallet, 'USDT')).toBe(20_000_000n);

    await anvil().setStorageAt({ address: wallet, index: 0, value: pad('0x00') });
    const paid = await eventually(
      () => shop.confirm(id, opt.id, [[signature]]),
      (r) => r.status === 200,
      5000,
    );
    expect(paid.body.status).toBe('processing');
    const d = await shop.until(id, (x) => x.status === 'succeeded');
    expect(d.status).toBe('succeeded');
    expect(await balanceOf(wallet, 'USDT')).toBe(10_000_000n);
  });

  async function waitBroadcast(id: string) {
    for (let i = 0; i < 100; i++) {
      const t = await svc.db('chain_transactions').where({ payment_id: id }).whereNotNull('broadcast_at').first();
      if (t) return t;
      await new Promise((r) => setTimeout(r, 100));
    }
    return null;
  }

  async function mineUntil<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
    for (let i = 0; ; i++) {
      const v = await read();
      if (ok(v) || i >= 120) return v;
      await anvil().mine({ blocks: 1 });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
});
