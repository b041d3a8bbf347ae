import { client, newAccount, newKey, TestService } from './service';
import { DEVNET_USDC, newWallet } from './chain';

export const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
export const USDC_ETH = 'eip155:1/erc20:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
export const EURC_BASE = 'eip155:8453/erc20:0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42';
export const WALLET = '0x52908400098527886E0F7030069857D2E4169EE7'; // EIP-55 test vector
export const WALLET2 = '0xde709f2102306220921060314715629080e2fb77'; // all-lowercase is its EIP-55 form

let seq = 0;
export const uniqueKey = (p = 'k') => `${p}-${process.pid}-${Date.now()}-${++seq}`;

/** An account with a merchant that settles the development chain's USDC to a fresh wallet, through the API. */
/** A new account's merchant settling the development chain's USDC to a fresh wallet; `test`: through a test key. */
export async function merchantWithSettlement(svc: TestService, name = 'Fixture', mode: 'live' | 'test' = 'live') {
  const wallet = newWallet();
  let acct = await newAccount(name);
  if (mode === 'test') acct = { ...acct, ...(await newKey(acct.accountId, 'partner', undefined, 'test')) };
  const api = client(svc.url, { 'Api-Key': acct.apiKey });
  const m = await api('POST', '/v1/merchants', {
    body: { merchantName: name, merchantEmail: 'm@x.io' },
    headers: { 'Idempotency-Key': uniqueKey() },
  });
  const merchantId: string = m.body.merchant.id;
  const s = await api('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
    body: { settlements: [{ asset: DEVNET_USDC, destination: `eip155:31337:${wallet}` }] },
    headers: { 'Idempotency-Key': uniqueKey() },
  });
  if (s.status !== 201) throw new Error(`settlement fixture failed: ${s.text}`);
  const asMerchant = client(svc.url, { 'Api-Key': acct.apiKey, 'Merchant-Id': merchantId });
  return { ...acct, api, asMerchant, merchantId, wallet };
}

/** A merchant (merchantWithSettlement), a wallet key of its account on the gateway, and USD 1.00 payments of it. */
export async function shopWithWallet(svc: Pick<TestService, 'url'>, name: string) {
  const shop = await merchantWithSettlement(svc as TestService, name);
  const gw = client(svc.url, { 'Api-Key': (await newKey(shop.accountId, 'wallet')).apiKey });
  const pay = async () => {
    const r = await shop.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '100' } },
    });
    if (r.status !== 201) throw new Error(r.text);
    return r.body.paymentId as string;
  };
  return { shop, gw, pay };
}
