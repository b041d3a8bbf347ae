// paygate quickstart: the whole flow of a payment against a running service (`make start`), with the
// TypeScript clients, paid with real tokens on the service's development chain (anvil): USDC by an EIP-3009
// signature, then USDT through Permit2 (the buyer's approve transaction, then the permit's signature), then ETH
// through the router contract (the buyer's own transaction).
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
import { runActions, STABLE_VERSION } from '@paygate/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { devnetFund, devnetInfo, newPartner, type DevnetInfo } from './admin';
import { balanceOf, buyerWallet } from './buyer';
import { sdkMerchant, thinMerchant, type MerchantSide } from './merchant';
import { sdkWallet, thinWallet, type WalletSide } from './wallet';

/** Where the merchant's USDC and USDT settle (an address on the development chain). */
const MERCHANT_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
/** Native coin (wei) for the buyer's gas: an approve of Permit2 is a transaction the buyer pays for. */
const GAS_WEI = '100000000000000000';

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
type Token = DevnetInfo['assets'][number];

interface Shop {
  devnet: DevnetInfo;
  merchant: MerchantSide;
  wallet: WalletSide;
  merchantId: string;
  run: string;
  reserve: { bps: number; windowMinutes: number };
}

/**
 * A payment of `fiat` US cents paid in `token`: the option, the buyer funded, the option's actions run by the
 * buyer's wallet, confirm, the transfer on chain (the buyer's balance read before and after) and the settlement.
 */
async function pay(
  shop: Shop,
  token: Token,
  fiat: string,
  expected: { value: string; methods: string[] },
): Promise<{ paymentId: string; buyer: string }> {
  const { devnet, merchant, wallet, merchantId, run } = shop;
  const payment = await merchant.createPayment(merchantId, `order-${run}-${token.symbol}`, { unit: 'iso4217/USD', value: fiat });
  expect(payment.status === 'requires_action', `a new payment to require action, got ${payment.status}`);
  step(`payment ${payment.paymentId} of USD ${(Number(fiat) / 100).toFixed(2)}; buyer link ${payment.gatewayUrl}`);

  const buyer = privateKeyToAccount((process.env.BUYER_PRIVATE_KEY ?? generatePrivateKey()) as `0x${string}`);
  const shown = await wallet.show(payment.paymentId);
  step(`wallet sees ${shown.amount} for ${shown.merchant} (${shown.status})`);
  const option = await wallet.option(payment.paymentId, `${devnet.chainId}:${buyer.address}`, token.asset);
  const methods = option.actions.map((a) => (a.type === 'walletRpc' ? a.data.method : a.type)).join(', then ');
  expect(
    option.amount.value === expected.value && expected.methods.includes(methods),
    `${expected.value} units of ${token.symbol} with actions ${expected.methods.join(' or ')}, got ${option.amount.value} and ${methods}`,
  );
  step(`option ${option.id}: ${option.amount.value} units of ${option.amount.unit}; actions ${methods}`);
  // The service simulates the transfer before it accepts the signature: the buyer needs the tokens first, and
  // native coin for the gas of an approve.
  const minted = devnetFund(buyer.address, token.asset, expected.value);
  step(`admin devnet fund: minted ${expected.value} units of ${token.symbol} to the buyer ${buyer.address} (transaction ${minted})`);
  if (methods.includes('eth_sendTransaction')) {
    devnetFund(buyer.address, `${devnet.chainId}/slip44:60`, GAS_WEI);
    step(`admin devnet fund: sent ${GAS_WEI} wei to the buyer for the approve's gas`);
  }
  const before = await balanceOf(devnet, token.asset, buyer.address);
  // Token options' actions are all walletRpc; an ETH option's is a build action (payEther below).
  const results = await runActions(option.actions, buyerWallet(buyer, devnet));
  const confirmed = await wallet.confirm(payment.paymentId, option.id, results);
  step(`the buyer's wallet ran the actions as ${buyer.address} and confirmed with their results: ${confirmed.status}`);

  let status = confirmed;
  for (let i = 0; !status.isFinal && i < 20; i++) status = await wallet.status(payment.paymentId, 5000);
  expect(
    status.status === 'succeeded' && TX_HASH.test(status.txId ?? ''),
    `the payment to succeed with a transaction, got ${JSON.stringify(status)}`,
  );
  const after = await balanceOf(devnet, token.asset, buyer.address);
  expect(before - after === BigInt(expected.value), `the buyer's ${token.symbol} to fall by ${expected.value}, from ${before} to ${after}`);
  step(`status ${status.status}: ${expected.value} units of ${token.symbol} left the buyer in transaction ${status.txId}`);

  // Then the service settles: amount minus fee from its collector to the merchant's destination, less the part the
  // account's refund reserve holds until its window ends (docs/ledger.md "Refund reserve").
  let seen = await merchant.getPayment(merchantId, payment.paymentId);
  expect(
    seen.status === 'succeeded' && seen.txId === status.txId,
    `the merchant to see the same succeeded payment, got ${JSON.stringify(seen)}`,
  );
  if (shop.reserve.bps === 10_000) {
    step(`not settled yet: the refund reserve holds the merchant's whole share for ${shop.reserve.windowMinutes} minutes, then settles it`);
    return { paymentId: payment.paymentId, buyer: buyer.address };
  }
  for (let i = 0; !seen.settlementTxId && i < 60; i++) {
    await new Promise((r) => setTimeout(r, 500));
    seen = await merchant.getPayment(merchantId, payment.paymentId);
  }
  expect(TX_HASH.test(seen.settlementTxId ?? ''), `the payment to be settled, got ${JSON.stringify(seen)}`);
  step(`settled to ${devnet.chainId}:${MERCHANT_ADDRESS} in transaction ${seen.settlementTxId}`);
  return { paymentId: payment.paymentId, buyer: buyer.address };
}

/**
 * A payment of `fiat` US cents paid in the chain's own coin (docs/native.md): the merchant settles ETH too, the buyer
 * holds only ETH, the option's one action is a build, whose fetch answers the transaction to the router contract; the
 * buyer's wallet sends it and confirm carries its hash. Collector mode: the service then settles the coin onward.
 */
async function payEther(shop: Shop, fiat: string): Promise<string> {
  const { devnet, merchant, wallet, merchantId, run } = shop;
  const eth = `${devnet.chainId}/slip44:60`;
  const settlementId = await merchant.addSettlement(merchantId, eth, `${devnet.chainId}:${MERCHANT_ADDRESS}`);
  step(`settlement ${settlementId}: ETH on the development chain to ${MERCHANT_ADDRESS}`);
  const payment = await merchant.createPayment(merchantId, `order-${run}-ETH`, { unit: 'iso4217/USD', value: fiat });
  const buyer = privateKeyToAccount(generatePrivateKey());
  step(`admin devnet fund: ${devnetFund(buyer.address, eth, GAS_WEI)} sent ${GAS_WEI} wei to a buyer holding only ETH`);
  const option = await wallet.option(payment.paymentId, `${devnet.chainId}:${buyer.address}`, eth);
  const [build] = option.actions;
  expect(option.actions.length === 1 && build.type === 'build', `one build action, got ${JSON.stringify(option.actions)}`);
  step(`option ${option.id}: ${option.amount.value} wei (priced from the chain's ETH/USD feed); actions build`);
  const actions = await wallet.fetch(payment.paymentId, option.id, build.data.data);
  const tx = actions[0]?.type === 'walletRpc' ? actions[0].data : undefined;
  expect(tx?.method === 'eth_sendTransaction' && actions.length === 1, `one eth_sendTransaction, got ${JSON.stringify(actions)}`);
  step(`fetch: send ${option.amount.value} wei to the router ${(tx.params[0] as { to: string }).to}`);
  const results = await runActions(actions, buyerWallet(buyer, devnet));
  let status = await wallet.confirm(payment.paymentId, option.id, results);
  for (let i = 0; !status.isFinal && i < 20; i++) status = await wallet.status(payment.paymentId, 5000);
  expect(status.status === 'succeeded' && status.txId === results[0].data[0], `the ETH payment to succeed with the buyer's transaction`);
  step(`status ${status.status}: the buyer's own transaction ${status.txId} paid it`);
  if (shop.reserve.bps === 10_000) return payment.paymentId;
  let seen = await merchant.getPayment(merchantId, payment.paymentId);
  for (let i = 0; !seen.settlementTxId && i < 60; i++) {
    await new Promise((r) => setTimeout(r, 500));
    seen = await merchant.getPayment(merchantId, payment.paymentId);
  }
  expect(TX_HASH.test(seen.settlementTxId ?? ''), `the ETH payment to be settled, got ${JSON.stringify(seen)}`);
  step(`settled in ETH to ${devnet.chainId}:${MERCHANT_ADDRESS} in transaction ${seen.settlementTxId}`);
  return payment.paymentId;
}

/** The account's refund reserve (preview `GET /v1/account/settings`): how much of each payment is held, how long. */
async function refundReserve(partnerKey: string): Promise<{ bps: number; windowMinutes: number }> {
  const r = await fetch(`${baseUrl}/v1/account/settings`, { headers: { 'Api-Key': partnerKey, 'PAY-Version': '2026-02-19.preview' } });
  expect(r.ok, `the account's settings, got ${r.status}`);
  return ((await r.json()) as { settings: { refundReserve: { bps: number; windowMinutes: number } } }).settings.refundReserve;
}

async function main() {
  const run = `${variant}-${Date.now()}`;
  const devnet = devnetInfo();
  const token = (symbol: string) => {
    const t = devnet.assets.find((a) => a.symbol === symbol);
    expect(t !== undefined, `the development chain to have ${symbol}, got ${JSON.stringify(devnet.assets)}`);
    return t;
  };
  const [usdc, usdt] = [token('USDC'), token('USDT')];
  step(`development chain ${devnet.chainId} at ${devnet.rpcUrl}: USDC is ${usdc.asset}, USDT is ${usdt.asset}`);
  const keys = newPartner(`Quickstart ${run}`);
  step(`admin: account ${keys.accountId} with a partner key and a wallet key`);
  const [merchant, wallet] = VARIANTS[variant](keys.partnerKey, keys.walletKey);
  console.log(
    `quickstart against ${baseUrl}: merchant side on ${merchant.client}, wallet on ${wallet.client} (generated SDK on ${version})`,
  );

  const merchantId = await merchant.createMerchant(`Coffee Shop ${run}`, 'owner@coffee.example.com');
  step(`merchant ${merchantId}`);
  for (const t of [usdc, usdt]) {
    const settlementId = await merchant.addSettlement(merchantId, t.asset, `${devnet.chainId}:${MERCHANT_ADDRESS}`);
    step(`settlement ${settlementId}: ${t.symbol} on the development chain to ${MERCHANT_ADDRESS}`);
  }
  const reserve = await refundReserve(keys.partnerKey);
  step(`refund reserve: ${reserve.bps / 100} % of each payment's share held ${reserve.windowMinutes} minutes for refunds`);
  const shop = { devnet, merchant, wallet, merchantId, run, reserve };

  const paid = await pay(shop, usdc, '1000', { value: '10000000', methods: ['eth_signTypedData_v4'] });
  const beforeRefund = await balanceOf(devnet, usdc.asset, paid.buyer);
  step(`the buyer holds ${beforeRefund} units of USDC before the refund`);
  const refund = await merchant.refund(merchantId, paid.paymentId);
  const refunded = await merchant.getPayment(merchantId, paid.paymentId);
  expect(Boolean(refunded.refundedAt), 'refundedAt to be set after the refund');
  // The refund's status, not refundedAt: a refund nothing covers (no reserve, the settlement gone) sends nothing
  // until its funding payment is paid.
  step(`refund ${refund.status}${refund.fundingUrl ? `: nothing sent until its funding payment is paid, ${refund.fundingUrl}` : ''}`);
  // Covered by the reserve, the tokens go back at once; without one, the refund waits for a funding payment.
  let afterRefund = await balanceOf(devnet, usdc.asset, paid.buyer);
  const covered = reserve.bps === 10_000 && reserve.windowMinutes > 0;
  for (let i = 0; covered && afterRefund === beforeRefund && i < 60; i++) {
    await new Promise((r) => setTimeout(r, 500));
    afterRefund = await balanceOf(devnet, usdc.asset, paid.buyer);
  }
  if (covered) expect(afterRefund - beforeRefund === 10_000_000n, `the refund to pay the buyer back, ${beforeRefund} then ${afterRefund}`);
  step(
    `the buyer holds ${afterRefund} units of USDC after the refund` +
      (afterRefund === beforeRefund ? ' (not covered by a reserve: the refund waits for its funding payment, docs/ledger.md)' : ''),
  );

  // USDT has no EIP-3009: Permit2. A buyer who has not approved Permit2 for USDT sends that approve first (a
  // BUYER_PRIVATE_KEY reused from an earlier run has approved it already: the signature alone).
  const permitOnly = 'eth_signTypedData_v4';
  const withApprove = `eth_sendTransaction, then ${permitOnly}`;
  const methods = process.env.BUYER_PRIVATE_KEY ? [withApprove, permitOnly] : [withApprove];
  const permit2 = await pay(shop, usdt, '500', { value: '5000000', methods });
  const ether = await payEther(shop, '500');
  console.log(
    `quickstart (${variant}): ok, paid USDC (payment ${paid.paymentId}), USDT through Permit2 (payment ${permit2.paymentId}) and ETH (payment ${ether})`,
  );
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
