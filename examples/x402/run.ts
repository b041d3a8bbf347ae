// paygate x402 example: a resource server (@x402/express) and an agent (@x402/fetch) pay each other through the
// running service's x402 facilitator, with real tokens on its development chain. Run: npm run --silent x402-example
// Environment as for the quickstart: PAYGATE_URL (default http://localhost:8080), DATABASE_URL and DEVNET_DIR for
// the admin command when the service does not use the local defaults.
import { createPublicClient, erc20Abi, http, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { admin, devnetFund, devnetInfo, newPartner } from '../quickstart/admin';
import { payingFetch, settlementOf } from './agent';
import { startResourceServer } from './server';

const paygate = process.env.PAYGATE_URL ?? 'http://localhost:8080';
/** The development chain's USDC is Circle's FiatToken: its EIP-712 domain. */
const USDC_DOMAIN = { name: 'USD Coin', version: '2' };
const PRICE = '1000'; // USD 0.001 in USDC units (the payment's amount is rounded up to 1 cent, its token amount exact)

async function main() {
  const chain = devnetInfo();
  const usdc = chain.assets.find((a) => a.symbol === 'USDC')!;
  const token = usdc.asset.split(':').at(-1) as Address;
  const network = chain.chainId as `${string}:${string}`;

  // The partner: a merchant settling USDC straight to its wallet (direct mode: payTo is that wallet).
  const partner = newPartner('x402 example');
  admin('accounts', 'set-mode', '--account', partner.accountId, '--mode', 'direct');
  const api = (path: string, body: unknown) =>
    fetch(`${paygate}${path}`, {
      method: 'POST',
      headers: { 'Api-Key': partner.partnerKey, 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const merchant = (await api('/v1/merchants', { merchantName: 'Report Shop', merchantEmail: 'reports@example.com' })).merchant;
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  await api(`/v1/merchants/${merchant.id}/settlements/crypto`, {
    settlements: [{ asset: usdc.asset, destination: `${network}:${payTo}` }],
  });

  const shop = await startResourceServer(paygate, partner.partnerKey, { network, asset: token, domain: USDC_DOMAIN, amount: PRICE, payTo });
  try {
    const agent = privateKeyToAccount(generatePrivateKey());
    devnetFund(agent.address, usdc.asset, PRICE);
    const res = await payingFetch(agent, network, token, PRICE)(shop.url);
    console.log(`- GET ${shop.url}: ${res.status} ${JSON.stringify(await res.json())}`);
    console.log(`- settlement: ${JSON.stringify(settlementOf(res))}`);
    const rpc = createPublicClient({ transport: http(chain.rpcUrl) });
    const received = await rpc.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [payTo] });
    console.log(`- the merchant's wallet ${payTo} holds ${received} USDC units`);
    const list = await fetch(`${paygate}/v1/payments?referenceId=${encodeURIComponent(shop.url)}`, {
      headers: { 'Api-Key': partner.partnerKey },
    });
    const [payment] = (await list.json()).data;
    console.log(`- the settlement is payment ${payment.paymentId}: ${payment.status}`);
    if (res.status !== 200 || received !== BigInt(PRICE) || payment.status !== 'succeeded') throw new Error('x402 example: not paid');
  } finally {
    shop.server.close();
    shop.server.closeAllConnections();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
