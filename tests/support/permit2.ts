import { createWalletClient, getAddress, http, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { devnetAssetId, devnetChain } from '../../src/chain/devnet';
import { devnetSetBalance } from '../../src/chain/anvil';
import { admin, client, type TestService } from './service';
import { merchantWithSettlement, uniqueKey } from './fixtures';
import { eventually } from './eventually';
import { chainClient, fund, rpcUrl } from './chain';

// Permit2 payments (issue 29) as a wallet makes them: a buyer with gas and USDT, the approve action sent, the
// permit signed, and a merchant settling USDT beside USDC.

export const USDT = devnetAssetId('USDT');
/** A buyer with gas (an approve costs it) and `usdt` units of USDT. */
export async function newUsdtBuyer(usdt: bigint): Promise<PrivateKeyAccount> {
  const buyer = privateKeyToAccount(generatePrivateKey());
  await devnetSetBalance(rpcUrl(), buyer.address);
  if (usdt) await fund(buyer.address, usdt, 'USDT');
  return buyer;
}

/** What a wallet does with an eth_sendTransaction action: sends it and waits for its receipt; the hash. */
export async function sendAction(buyer: PrivateKeyAccount, param: string): Promise<Hex> {
  const tx = JSON.parse(param) as { from: string; to: Hex; value: string; data: Hex };
  expect(getAddress(tx.from)).toBe(buyer.address);
  const wallet = createWalletClient({ chain: devnetChain(rpcUrl()), transport: http(rpcUrl()), account: buyer });
  const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value) });
  expect((await chainClient().waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success');
  return hash;
}

/** A merchant settling USDC and USDT on the first development chain, a wallet key of its account, and its flow. */
export async function usdtShop(svc: TestService, name: string, mode: 'collector' | 'direct') {
  const s = await merchantWithSettlement(svc, name);
  const r = await s.api('POST', `/v1/merchants/${s.merchantId}/settlements/crypto`, {
    body: { settlements: [{ asset: USDT, destination: `eip155:31337:${s.wallet}` }] },
    headers: { 'Idempotency-Key': uniqueKey() },
  });
  if (r.status !== 201) throw new Error(r.text);
  if (mode === 'direct') await admin('accounts', 'set-mode', '--account', s.accountId, '--mode', 'direct');
  const key = await admin('keys', 'create', '--account', s.accountId, '--type', 'wallet');
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
    const o = await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [`eip155:31337:${buyer.address}`] } });
    if (o.status !== 200) throw new Error(o.text);
    const opt = o.body.options.find((x: any) => x.amount.unit === `caip19/${USDT}`);
    return {
      all: o.body.options,
      opt,
      actions: opt.actions as { type: string; data: { chain_id: string; method: string; params: string[] } }[],
    };
  };
  const confirm = (id: string, optionId: string, results: string[][]) =>
    gw('POST', `/v1/gateway/payment/${id}/confirm`, { body: { optionId, results: results.map((data) => ({ type: 'walletRpc', data })) } });
  const details = async (id: string) => (await s.asMerchant('GET', `/v1/payments/${id}`)).body;
  const until = (id: string, ok: (d: any) => boolean) => eventually(() => details(id), ok, 30_000);
  return { ...s, gw, pay, usdtOption, confirm, details, until };
}

export type UsdtShop = Awaited<ReturnType<typeof usdtShop>>;

/** What a wallet does with an eth_signTypedData_v4 action. */
export const signOf = (buyer: PrivateKeyAccount, action: { data: { params: string[] } }) =>
  buyer.signTypedData(JSON.parse(action.data.params[1]));
