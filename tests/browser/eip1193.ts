import { createWalletClient, http, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { Page } from 'playwright-core';
import { devnetChain } from '../../src/chain/devnet';
import { DEVNET_CHAIN_ID } from '../../src/chain/devnetChains';
import { chainClient, rpcUrl } from '../support/chain';

// A browser wallet for the hosted pages' tests: window.ethereum (EIP-1193) injected before the page's scripts run,
// answering from a viem account on the development chain (it sends real transactions and signs typed data). Every
// request is recorded, in order, for the test to check what the page asked of the wallet.

const WALLET = 'paygateTestWallet';

export async function injectWallet(page: Page, account: PrivateKeyAccount): Promise<{ method: string; params: unknown[] }[]> {
  const url = rpcUrl();
  const wallet = createWalletClient({ chain: devnetChain(url, DEVNET_CHAIN_ID), transport: http(url), account });
  const asked: { method: string; params: unknown[] }[] = [];
  await page.exposeFunction(WALLET, async (method: string, params: unknown[]) => {
    asked.push({ method, params });
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return [account.address];
      case 'eth_chainId':
        return `0x${DEVNET_CHAIN_ID.toString(16)}`;
      case 'eth_sendTransaction': {
        const tx = params[0] as { from: string; to: Hex; data: Hex; value?: Hex };
        if (tx.from.toLowerCase() !== account.address.toLowerCase()) throw new Error('not this wallet');
        return wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value ?? 0), gas: 100_000n });
      }
      case 'eth_getTransactionReceipt': {
        const r = await chainClient()
          .getTransactionReceipt({ hash: params[0] as Hex })
          .catch(() => null);
        return r && { transactionHash: r.transactionHash, status: r.status === 'success' ? '0x1' : '0x0' };
      }
      case 'eth_signTypedData_v4':
        if ((params[0] as string).toLowerCase() !== account.address.toLowerCase()) throw new Error('not this wallet');
        return account.signTypedData(JSON.parse(params[1] as string));
      default:
        throw new Error(`unsupported method ${method}`);
    }
  });
  await page.addInitScript((name: string) => {
    const w = window as unknown as Record<string, (m: string, p: unknown[]) => Promise<unknown>> & { ethereum: unknown };
    w.ethereum = { request: ({ method, params }: { method: string; params?: unknown[] }) => w[name](method, params ?? []) };
  }, WALLET);
  return asked;
}
