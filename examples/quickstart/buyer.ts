// The buyer's wallet: a viem local account that runs the walletRpc actions of an option on the development
// chain the action names (runActions of @paygate/client calls it once per action, in order).
import type { WalletRpcRunner } from '@paygate/client';
import { createPublicClient, createWalletClient, defineChain, getAddress, http, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { DevnetInfo } from './admin';

/** The chain (CAIP-2 `eip155:<id>`) as viem wants it, with the development chain's RPC URL. */
function chainOf(devnet: DevnetInfo, caip2: string) {
  const info = (devnet.chains ?? [devnet]).find((c) => c.chainId === caip2);
  if (!info) throw new Error(`no development chain ${caip2}`);
  const id = Number(caip2.split(':')[1]);
  return defineChain({
    id,
    name: caip2,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [info.rpcUrl] } },
  });
}

/** Reads a token balance (smallest units) on the chain of a CAIP-19 asset. */
export function balanceOf(devnet: DevnetInfo, asset: string, holder: string): Promise<bigint> {
  const [chainId, token] = asset.split('/');
  const client = createPublicClient({ chain: chainOf(devnet, chainId), transport: http() });
  const abi = [
    { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ type: 'address' }], outputs: [{ type: 'uint256' }] },
  ] as const;
  return client.readContract({ address: getAddress(token.split(':')[1]), abi, functionName: 'balanceOf', args: [getAddress(holder)] });
}

/**
 * eth_sendTransaction (`[{from, to, value, data}]`, an approve of Permit2): signs and broadcasts it, waits for its
 * receipt, returns its hash (the buyer pays its gas); eth_signTypedData_v4: signs the EIP-712 typed data (an
 * EIP-3009 authorization or a Permit2 permit), returns the signature.
 */
export function buyerWallet(buyer: PrivateKeyAccount, devnet: DevnetInfo): WalletRpcRunner {
  return async ({ chain_id, method, params }) => {
    if (method === 'eth_signTypedData_v4') return buyer.signTypedData(JSON.parse(params[1] as string));
    if (method !== 'eth_sendTransaction') throw new Error(`the buyer's wallet does not run ${method}`);
    // The transaction object itself, as JSON-RPC (and any EIP-1193 provider) takes it.
    const tx = params[0] as { from: string; to: Hex; value: Hex; data: Hex };
    if (getAddress(tx.from) !== buyer.address) throw new Error(`a transaction from ${tx.from}, not from the buyer`);
    const chain = chainOf(devnet, chain_id);
    const hash = await createWalletClient({ chain, transport: http(), account: buyer }).sendTransaction({
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value),
    });
    const receipt = await createPublicClient({ chain, transport: http() }).waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return hash;
  };
}
