// paygate quickstart: the whole flow of a payment against a running service (`make start`), with the
// TypeScript clients, paid with real tokens on the service's development chain (anvil with FiatToken USDC).
// Run: npm run --silent quickstart [-- --variant thin|sdk|sdk-only]
//   thin (default): the merchant side on @paygate/client, the wallet on the generated typescript-fetch SDK
//   sdk:            the merchant side on the generated SDK, the wallet on @paygate/client
//   sdk-only:       both sides on the generated SDK
// `@paygate/sdk` is the generated SDK: tsconfig.json here maps it to generated/2026-02-18/sdk/typescript/src;
// the SDK tests map it to an installed package of either version instead.
// Environment: PAYGATE_URL (default http://localhost:8080); PAYGATE_VERSION, the PAY-Version the generated SDK
// sends (default the stable version; @paygate/client stays on it); BUYER_PRIVATE_KEY (default: a key
// generated for this run); for the admin command, DATABASE_URL when the service does not use the local
// embedded database and DEVNET_DIR when its development chain does not keep its state in .data/devnet.
import { STABLE_VERSION } from '@paygate/client';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { devnetFund, devnetInfo, newPartner } from './admin';
import { sdkMerchant, thinMerchant, type MerchantSide } from './merchant';
import { sdkWallet, thinWallet, type Option, type WalletSide } from './wallet';

/** Where the merchant's USDC settles (an address on the development chain). */
const MERCHANT_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

const baseUrl = process.env.PAYGATE_URL ?? 'http://localhost:8080';
const version = process.env.PAYGATE_VERSION ?? STABLE_VERSION;
const VARIANTS: Record<string, (partnerKey: string, walletKey: string) => [MerchantSide, WalletSide]> = {
  thin: (partnerKey, walletKey) => [thinMerchant(baseUrl, partnerKey), sdkWallet(baseUrl, walletKey, version)],
  sdk: (partnerKey, walletKey) => [sdkMerchant(baseUrl, partnerKey, version), thinWallet(baseUrl, walletKey)],
  'sdk-only': (partnerKey, walletKey) => [sdkMerchant(baseUrl, partnerKey, version), sdkWallet(baseUrl, walletKey, version)],
};
const variant = process.argv.includes('--variant') ? process.argv[process.argv.indexOf('--variant') + 1] : 'thin';
if (!VARIANTS[variant]) throw new Error(`--variant ${Object.keys(VARIANTS).join('|')}, not ${variant}`);

const step = (text: string) => console.log(`- ${text}`);
function expect(ok: boolean, what: string): asserts ok {
  if (!ok) throw new Error(`quickstart: expected ${what}`);
}
const TX_HASH = /^0x[0-9a-f]{64}$/;

/** What the buyer's wallet (a viem local account) does with the option's walletRpc action: sign the EIP-712 typed data it carries. */
async function signOption(buyer: PrivateKeyAccount, option: Option): Promise<`0x${string}`> {
  if (option.method !== 'eth_signTypedData_v4') throw new Error(`unexpected wallet RPC ${option.method}`);
  return buyer.signTypedData(JSON.parse(option.typedData));
}

async function main() {
  const run = `${variant}-${Date.now()}`;
  const devnet = devnetInfo();
  const usdc = devnet.assets.find((a) => a.symbol === 'USDC');
  expect(usdc !== undefined, `the development chain to have USDC, got ${JSON.stringify(devnet.assets)}`);
  step(`development chain ${devnet.chainId} at ${devnet.rpcUrl}: USDC is ${usdc.asset}`);
  const keys = newPartner(`Quickstart ${run}`);
  step(`admin: account ${keys.accountId} with a partner key and a wallet key`);
  const [merchant, wallet] = VARIANTS[variant](keys.partnerKey, keys.walletKey);
  console.log(
    `quickstart against ${baseUrl}: merchant side on ${merchant.client}, wallet on ${wallet.client} (generated SDK on ${version})`,
  );

  const merchantId = await merchant.createMerchant(`Coffee Shop ${run}`, 'owner@coffee.example.com');
  step(`merchant ${merchantId}`);
  const destination = `${devnet.chainId}:${MERCHANT_ADDRESS}`;
  const settlementId = await merchant.addSettlement(merchantId, usdc.asset, destination);
  step(`settlement ${settlementId}: USDC on the development chain to ${destination}`);
  const payment = await merchant.createPayment(merchantId, `order-${run}`, { unit: 'iso4217/USD', value: '1000' });
  expect(payment.status === 'requires_action', `a new payment to require action, got ${payment.status}`);
  step(`payment ${payment.paymentId} of USD 10.00; buyer link ${payment.gatewayUrl}`);

  const buyer = privateKeyToAccount((process.env.BUYER_PRIVATE_KEY ?? generatePrivateKey()) as `0x${string}`);
  const shown = await wallet.show(payment.paymentId);
  step(`wallet sees ${shown.amount} for ${shown.merchant} (${shown.status})`);
  const option = await wallet.option(payment.paymentId, `${devnet.chainId}:${buyer.address}`);
  expect(
    option.amount.unit === `caip19/${usdc.asset}` && option.amount.value === '10000000',
    `10 USDC on the development chain, got ${JSON.stringify(option.amount)}`,
  );
  step(`option ${option.id}: ${option.amount.value} units of ${option.amount.unit}`);
  // The service simulates the transfer before it accepts the signature: the buyer needs the tokens first.
  const minted = devnetFund(buyer.address, usdc.asset, option.amount.value);
  step(`admin devnet fund: minted ${option.amount.value} units to the buyer ${buyer.address} (transaction ${minted})`);
  const signature = await signOption(buyer, option);
  const confirmed = await wallet.confirm(payment.paymentId, option.id, signature);
  step(`signed the option's EIP-712 authorization as ${buyer.address} and confirmed: ${confirmed.status}`);

  let status = confirmed;
  for (let i = 0; !status.isFinal && i < 20; i++) status = await wallet.status(payment.paymentId, 5000);
  expect(
    status.status === 'succeeded' && TX_HASH.test(status.txId ?? ''),
    `the payment to succeed with a transaction, got ${JSON.stringify(status)}`,
  );
  step(`status ${status.status}: the buyer's transfer is on chain in transaction ${status.txId}`);

  // Then the service settles: amount minus fee from its collector to the merchant's destination.
  let seen = await merchant.getPayment(merchantId, payment.paymentId);
  expect(
    seen.status === 'succeeded' && seen.txId === status.txId,
    `the merchant to see the same succeeded payment, got ${JSON.stringify(seen)}`,
  );
  for (let i = 0; !seen.settlementTxId && i < 60; i++) {
    await new Promise((r) => setTimeout(r, 500));
    seen = await merchant.getPayment(merchantId, payment.paymentId);
  }
  expect(TX_HASH.test(seen.settlementTxId ?? ''), `the payment to be settled, got ${JSON.stringify(seen)}`);
  step(`settled to ${destination} in transaction ${seen.settlementTxId}`);
  await merchant.refund(merchantId, payment.paymentId);
  const refunded = await merchant.getPayment(merchantId, payment.paymentId);
  expect(Boolean(refunded.refundedAt), 'refundedAt to be set after the refund');
  step(`refunded at ${refunded.refundedAt}`);
  console.log(`quickstart (${variant}): ok, paid in transaction ${status.txId}`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
