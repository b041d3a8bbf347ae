import { createWalletClient, getAddress, http, isAddress, isHex, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { devnetChain } from '../../src/chain/devnet';
import { DEVNET_CHAIN_ID } from '../../src/chain/devnetChains';
import { chainClient, rpcUrl } from './chain';

// A wallet as public wallets run the gateway's actions: each action's `method` and `params` go to its EIP-1193
// provider unchanged (Gem Wallet's WalletConnect Pay mapper, MetaMask's `ethereum.request`, viem's
// `walletClient.request`). The provider is as strict as MetaMask: an eth_sendTransaction whose parameter is not a
// transaction object is refused with EIP-1193's "invalid params" (-32602), and so is typed data that is not a JSON
// string. What it accepts it executes for real on the development chain with the buyer's key.

/** An EIP-1193 provider error (`code`: JSON-RPC's -32602 invalid params, EIP-1193's 4100 unauthorized, 4200 unsupported). */
class ProviderRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}

const invalidParams = (why: string) => new ProviderRpcError(-32602, `Invalid parameters: ${why}`);
const isQuantity = (v: unknown) => typeof v === 'string' && /^0x(0|[1-9a-f][0-9a-f]*)$/i.test(v);

/** The transaction of eth_sendTransaction's params, checked as MetaMask checks it, or the refusal it throws. */
function transactionParam(params: unknown, from: string): { to: Hex; data: Hex; value: bigint } {
  const tx = Array.isArray(params) ? params[0] : undefined;
  if (!Array.isArray(params) || params.length !== 1 || typeof tx !== 'object' || tx === null || Array.isArray(tx))
    throw invalidParams('must provide an Ethereum transaction object.');
  const t = tx as Record<string, unknown>;
  if (typeof t.from !== 'string' || !isAddress(t.from)) throw invalidParams(`invalid "from" address: ${String(t.from)}`);
  if (getAddress(t.from) !== from) throw new ProviderRpcError(4100, 'The requested account has not been authorized by the user.');
  if (typeof t.to !== 'string' || !isAddress(t.to)) throw invalidParams(`invalid "to" address: ${String(t.to)}`);
  if (t.data !== undefined && !(typeof t.data === 'string' && isHex(t.data))) throw invalidParams('"data" must be a hex string.');
  if (t.value !== undefined && !isQuantity(t.value)) throw invalidParams('"value" must be a hex quantity.');
  return { to: getAddress(t.to), data: (t.data ?? '0x') as Hex, value: BigInt((t.value as string | undefined) ?? 0) };
}

/** A strict EIP-1193 provider for `buyer` on a development chain (the first by default). `asked`: every request, in order. */
export function strictProvider(buyer: PrivateKeyAccount, chainId: number = DEVNET_CHAIN_ID) {
  const url = rpcUrl(chainId);
  const wallet = createWalletClient({ chain: devnetChain(url, chainId), transport: http(url), account: buyer });
  const asked: { method: string; params: unknown }[] = [];
  const provider: Eip1193Provider = {
    async request({ method, params }) {
      asked.push({ method, params });
      switch (method) {
        case 'eth_chainId':
          return `0x${chainId.toString(16)}`;
        case 'eth_accounts':
        case 'eth_requestAccounts':
          return [buyer.address];
        case 'eth_sendTransaction': {
          const tx = transactionParam(params, buyer.address);
          return wallet.sendTransaction({ ...tx, gas: 100_000n });
        }
        case 'eth_getTransactionReceipt': {
          const hash = Array.isArray(params) ? params[0] : undefined;
          if (typeof hash !== 'string' || !isHex(hash)) throw invalidParams('expected a transaction hash.');
          const r = await chainClient(chainId)
            .getTransactionReceipt({ hash })
            .catch(() => null);
          return r && { transactionHash: r.transactionHash, status: r.status === 'success' ? '0x1' : '0x0' };
        }
        case 'eth_signTypedData_v4': {
          const [address, typedData] = Array.isArray(params) ? params : [];
          if (typeof address !== 'string' || !isAddress(address)) throw invalidParams('expected the signing address first.');
          if (getAddress(address) !== buyer.address)
            throw new ProviderRpcError(4100, 'The requested account has not been authorized by the user.');
          if (typeof typedData !== 'string') throw invalidParams('expected the typed data as a JSON string.');
          return buyer.signTypedData(JSON.parse(typedData));
        }
        default:
          throw new ProviderRpcError(4200, `The provider does not support ${method}.`);
      }
    },
  };
  return { provider, asked };
}

/**
 * The wallet's handler of one walletRpc action: `method` and `params` to the provider as they are; for a sent
 * transaction it waits, through the provider, until it is mined (a permit counts only once its approve is), and
 * resolves with the provider's result. Usable as @paygate/client's `WalletRpcRunner`.
 */
export function strictWallet(provider: Eip1193Provider, chainId: number = DEVNET_CHAIN_ID) {
  return async (action: { chain_id: string; method: string; params: unknown }): Promise<string> => {
    if (action.chain_id !== `eip155:${chainId}`) throw new ProviderRpcError(4901, `the wallet is not on ${action.chain_id}`);
    const result = await provider.request({ method: action.method, params: action.params });
    if (typeof result !== 'string') throw new Error(`${action.method} answered ${JSON.stringify(result)}`);
    if (action.method !== 'eth_sendTransaction') return result;
    for (let i = 0; i < 200; i++) {
      const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [result] })) as { status: string } | null;
      if (receipt) {
        if (receipt.status !== '0x1') throw new Error(`transaction ${result} reverted`);
        return result;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`transaction ${result} not mined`);
  };
}
