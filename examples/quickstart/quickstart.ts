// paygate quickstart: the whole flow of a payment against a running service (`make start`), with the
// TypeScript clients. Run: npm run --silent quickstart [-- --variant thin|sdk]
//   thin (default): the merchant side on @paygate/client, the wallet on the generated typescript-fetch SDK
//   sdk:            the merchant side on the generated SDK, the wallet on @paygate/client
// Environment: PAYGATE_URL (default http://localhost:8080), BUYER_PRIVATE_KEY (default: a public test key),
// DATABASE_URL for the admin command when the service does not use the local embedded database.
import { privateKeyToAccount } from 'viem/accounts';
import { newPartner } from './admin';
import { sdkMerchant, thinMerchant } from './merchant';
import { sdkWallet, signOption, thinWallet } from './wallet';

const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const MERCHANT_WALLET = 'eip155:8453:0x52908400098527886E0F7030069857D2E4169EE7'; // where the USDC settles
// A well-known development key (never holds funds). The service's simulated chain needs no real funds.
const TEST_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

const baseUrl = process.env.PAYGATE_URL ?? 'http://localhost:8080';
const variant = process.argv.includes('--variant') ? process.argv[process.argv.indexOf('--variant') + 1] : 'thin';
if (variant !== 'thin' && variant !== 'sdk') throw new Error(`--variant thin|sdk, not ${variant}`);

const step = (text: string) => console.log(`- ${text}`);
function expect(ok: boolean, what: string): asserts ok {
  if (!ok) throw new Error(`quickstart: expected ${what}`);
}

async function main() {
  const run = `${variant}-${Date.now()}`;
  const keys = newPartner(`Quickstart ${run}`);
  step(`admin: account ${keys.accountId} with a partner key and a wallet key`);
  const merchant = variant === 'thin' ? thinMerchant(baseUrl, keys.partnerKey) : sdkMerchant(baseUrl, keys.partnerKey);
  const wallet = variant === 'thin' ? sdkWallet(baseUrl, keys.walletKey) : thinWallet(baseUrl, keys.walletKey);
  console.log(`quickstart against ${baseUrl}: merchant side on ${merchant.client}, wallet on ${wallet.client}`);

  const merchantId = await merchant.createMerchant(`Coffee Shop ${run}`, 'owner@coffee.example.com');
  step(`merchant ${merchantId}`);
  const settlementId = await merchant.addSettlement(merchantId, USDC_BASE, MERCHANT_WALLET);
  step(`settlement ${settlementId}: USDC on Base to ${MERCHANT_WALLET}`);
  const payment = await merchant.createPayment(merchantId, `order-${run}`, { unit: 'iso4217/USD', value: '1000' });
  expect(payment.status === 'requires_action', `a new payment to require action, got ${payment.status}`);
  step(`payment ${payment.paymentId} of USD 10.00; buyer link ${payment.gatewayUrl}`);

  const buyer = privateKeyToAccount((process.env.BUYER_PRIVATE_KEY ?? TEST_KEY) as `0x${string}`);
  const shown = await wallet.show(payment.paymentId);
  step(`wallet sees ${shown.amount} for ${shown.merchant} (${shown.status})`);
  const option = await wallet.option(payment.paymentId, `eip155:8453:${buyer.address}`);
  expect(option.amount.unit === `caip19/${USDC_BASE}` && option.amount.value === '10000000', `10 USDC on Base, got ${JSON.stringify(option.amount)}`);
  step(`option ${option.id}: ${option.amount.value} units of ${option.amount.unit}`);
  const signature = await signOption(buyer, option);
  const confirmed = await wallet.confirm(payment.paymentId, option.id, signature);
  step(`signed the EIP-712 TransferWithAuthorization as ${buyer.address} and confirmed: ${confirmed.status}`);

  let status = confirmed;
  for (let i = 0; !status.isFinal && i < 20; i++) status = await wallet.status(payment.paymentId, 5000);
  expect(status.status === 'succeeded', `the payment to succeed, got ${status.status}`);
  step(`status ${status.status}, transaction ${status.txId}`);

  const seen = await merchant.getPayment(merchantId, payment.paymentId);
  expect(seen.status === 'succeeded' && seen.txId === status.txId, `the merchant to see the same succeeded payment, got ${JSON.stringify(seen)}`);
  await merchant.refund(merchantId, payment.paymentId);
  const refunded = await merchant.getPayment(merchantId, payment.paymentId);
  expect(Boolean(refunded.refundedAt), 'refundedAt to be set after the refund');
  step(`refunded at ${refunded.refundedAt}`);
  console.log(`quickstart (${variant}): ok`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
