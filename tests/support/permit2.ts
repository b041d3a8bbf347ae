import type { WalletRpcRunner } from '@paygate/client';
import { createWalletClient, getAddress, http, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { devnetAssetId, devnetChain } from '../../src/chain/devnet';
import { DEVNET_CHAIN_ID } from '../../src/chain/devnetChains';
import { devnetSetBalance } from '../../src/chain/anvil';
import { client, newKey, setAccountMode, type TestService } from './service';
import { merchantWithSettlement, uniqueKey } from './fixtures';
import { eventually } from './eventually';
import { chainClient, fund, rpcUrl } from './chain';

// Permit2 payments (issue 29) as a wallet makes them: a buyer with gas and USDT, the approve action sent, the
// permit signed, and a merchant settling USDT beside USDC.

export const USDT = devnetAssetId('USDT');
/** A buyer with gas (an approve costs it) and `usdt` units of USDT on a development chain (the first by default). */
export async function newUsdtBuyer(usdt: bigint, chainId: number = DEVNET_CHAIN_ID): Promise<PrivateKeyAccount> {
  const buyer = privateKeyToAccount(generatePrivateKey());
  await devnetSetBalance(rpcUrl(chainId), buyer.address);
  if (usdt) await fund(buyer.address, usdt, 'USDT', chainId);
  return buyer;
}

/** An eth_sendTransaction action's one parameter: the transaction object, as JSON-RPC takes it. */
export interface TransactionParam {
  from: string;
  to: Hex;
  value: Hex;
  data: Hex;
}

/** The transaction of an eth_sendTransaction action's `params[0]`, checked to be the JSON-RPC object form. */
export function transactionOf(param: unknown): TransactionParam {
  expect(param).toEqual({
    from: expect.any(String),
    to: expect.any(String),
    value: expect.stringMatching(/^0x/),
    data: expect.any(String),
  });
  return param as TransactionParam;
}

/** What a wallet does with an eth_sendTransaction action (its `params[0]`): sends it and waits for its receipt; the hash. */
export async function sendAction(buyer: PrivateKeyAccount, param: unknown, chainId: number = DEVNET_CHAIN_ID, wait = true): Promise<Hex> {
  const tx = transactionOf(param);
  expect(getAddress(tx.from)).toBe(buyer.address);
  const url = rpcUrl(chainId);
  const wallet = createWalletClient({ chain: devnetChain(url, chainId), transport: http(url), account: buyer });
  const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value), gas: 100_000n });
  if (wait) expect((await chainClient(chainId).waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success');
  return hash;
}

/**
 * A merchant settling USDC (on the first development chain) and USDT (on `chainId`, the first by default), a
 * wallet key of its account, and its flow.
 */
export async function usdtShop(svc: TestService, name: string, mode: 'collector' | 'direct', chainId: number = DEVNET_CHAIN_ID) {
  const s = await merchantWithSettlement(svc, name);
  const usdt = devnetAssetId('USDT', chainId);
  const r = await s.api('POST', `/v1/merchants/${s.merchantId}/settlements/crypto`, {
    body: { settlements: [{ asset: usdt, destination: `eip155:${chainId}:${s.wallet}` }] },
    headers: { 'Idempotency-Key': uniqueKey() },
  });
  if (r.status !== 201) throw new Error(r.text);
  if (mode === 'direct') await setAccountMode(s.accountId, 'direct');
  const key = await newKey(s.accountId, 'wallet');
  const gw = client(svc.url, { 'Api-Key': key.apiKey });
  const pay = async (value = '1000') => {
    const p = await s.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value } },
    });
    if (p.status !== 201) throw new Error(p.text);
    return p.body.paymentId as string;
  };
  /** The payment's USDT option for the buyer, and the option's actions. */
  const usdtOption = async (id: string, buyer: PrivateKeyAccount) => {
    const o = await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [`eip155:${chainId}:${buyer.address}`] } });
    if (o.status !== 200) throw new Error(o.text);
    const opt = o.body.options.find((x: any) => x.amount.unit === `caip19/${usdt}`);
    return {
      all: o.body.options,
      opt,
      actions: opt.actions as { type: string; data: { chain_id: string; method: string; params: any[] } }[],
    };
  };
  const confirm = (id: string, optionId: string, results: string[][]) =>
    gw('POST', `/v1/gateway/payment/${id}/confirm`, { body: { optionId, results: results.map((data) => ({ type: 'walletRpc', data })) } });
  const details = async (id: string) => (await s.asMerchant('GET', `/v1/payments/${id}`)).body;
  const until = (id: string, ok: (d: any) => boolean) => eventually(() => details(id), ok, 30_000);
  return { ...s, walletKey: key.apiKey as string, gw, pay, usdtOption, confirm, details, until };
}

export type UsdtShop = Awaited<ReturnType<typeof usdtShop>>;

/** What a wallet does with an eth_signTypedData_v4 action. */
export const signOf = (buyer: PrivateKeyAccount, action: { data: { params: unknown[] } }) =>
  buyer.signTypedData(JSON.parse(action.data.params[1] as string));

/** The buyer's wallet as @paygate/client's runActions calls it: each walletRpc request run as above. */
export const walletOf =
  (buyer: PrivateKeyAccount): WalletRpcRunner =>
  async (request) =>
    request.method === 'eth_sendTransaction'
      ? sendAction(buyer, request.params[0], Number(request.chain_id.split(':')[1]))
      : signOf(buyer, { data: request });
