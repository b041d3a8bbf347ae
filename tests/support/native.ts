import type { PrivateKeyAccount } from 'viem/accounts';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { devnetSetBalance } from '../../src/chain/anvil';
import { DEVNET_CHAIN_ID } from '../../src/chain/devnetChains';
import { client, newKey, setAccountMode, type TestService } from './service';
import { merchantWithSettlement, uniqueKey } from './fixtures';
import { eventually } from './eventually';
import { rpcUrl } from './chain';

// Payments in the chain's own coin (issue 49) as a wallet makes them: a buyer holding only ETH, a merchant settling
// ETH (beside USDC) on a development chain, the option's build action fetched into its transaction.

export const ethAsset = (chainId: number = DEVNET_CHAIN_ID) => `eip155:${chainId}/slip44:60`;

/** A buyer holding only `ether` of the chain's coin (anvil's balance cheat). */
export async function newEthBuyer(chainId: number = DEVNET_CHAIN_ID, ether = '10'): Promise<PrivateKeyAccount> {
  const buyer = privateKeyToAccount(generatePrivateKey());
  await devnetSetBalance(rpcUrl(chainId), buyer.address, ether);
  return buyer;
}

type Action = { type: string; data: { chain_id: string; method: string; params: any[]; data?: string } };

/** A merchant settling ETH on `chainIds` (and USDC), an account in `mode`, a wallet key, and the gateway flow. */
export async function ethShop(svc: TestService, name: string, mode: 'collector' | 'direct', chainIds: number[] = [DEVNET_CHAIN_ID]) {
  const s = await merchantWithSettlement(svc, name);
  const r = await s.api('POST', `/v1/merchants/${s.merchantId}/settlements/crypto`, {
    body: { settlements: chainIds.map((c) => ({ asset: ethAsset(c), destination: `eip155:${c}:${s.wallet}` })) },
    headers: { 'Idempotency-Key': uniqueKey() },
  });
  if (r.status !== 201) throw new Error(r.text);
  if (mode === 'direct') await setAccountMode(s.accountId, 'direct');
  const key = await newKey(s.accountId, 'wallet');
  const gw = client(svc.url, { 'Api-Key': key.apiKey });
  const pay = async (value = '1000', currency = 'USD') => {
    const p = await s.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('order'), amount: { unit: `iso4217/${currency}`, value } },
    });
    if (p.status !== 201) throw new Error(p.text);
    return p.body.paymentId as string;
  };
  /** The payment's options for the buyer on `chainId`, and its ETH option (undefined when none is offered). */
  const ethOption = async (id: string, buyer: PrivateKeyAccount, chainId: number = DEVNET_CHAIN_ID) => {
    const o = await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [`eip155:${chainId}:${buyer.address}`] } });
    if (o.status !== 200) throw new Error(o.text);
    const opt = o.body.options.find((x: any) => x.amount.unit === `caip19/${ethAsset(chainId)}`);
    return { all: o.body.options as any[], opt: opt as { id: string; amount: any; actions: Action[]; expiresAt: number } | undefined };
  };
  const fetchActions = (id: string, optionId: string, data: unknown = 'native') =>
    gw('POST', `/v1/gateway/payment/${id}/fetch`, { body: { optionId, data } });
  const confirm = (id: string, optionId: string, results: string[][]) =>
    gw('POST', `/v1/gateway/payment/${id}/confirm`, { body: { optionId, results: results.map((data) => ({ type: 'walletRpc', data })) } });
  const details = async (id: string) => (await s.asMerchant('GET', `/v1/payments/${id}`)).body;
  const until = (id: string, ok: (d: any) => boolean) => eventually(() => details(id), ok, 30_000);
  return { ...s, walletKey: key.apiKey as string, gw, pay, ethOption, fetchActions, confirm, details, until };
}

export type EthShop = Awaited<ReturnType<typeof ethShop>>;
