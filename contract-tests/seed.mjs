// Seeds what the fuzzers need, through the admin command and the API, as a partner would:
// an account with a partner key and a wallet key, a merchant, crypto settlements (the development chain's
// USDC and USDT, so that its payments get an EIP-3009 and a Permit2 option), payments, and a buyer key holding
// gas, USDC and USDT on the development chain (the hooks pay options with it, so that the gate's confirms pay
// for real; a Permit2 option's approve costs the buyer gas).
// A step may answer 501 only when its operation is on not-implemented.txt: then it is skipped and the
// seed goes on; once the endpoint lands (and leaves the list) the same step must succeed.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { createPublicClient, http, parseAbi } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { notImplemented } from './notImplemented.mjs';
import { root } from './stack.mjs';

const run = promisify(execFile);

async function admin(env, ...args) {
  const { stdout } = await run(process.execPath, [path.join(root, 'dist/src/cli/admin.js'), ...args], { env, cwd: root });
  return JSON.parse(stdout);
}

export async function seed({ url, env, version = '2026-02-18' }) {
  const pending = notImplemented();
  const partner = await admin(env, 'accounts', 'create', '--name', 'Contract gate partner');
  const wallet = await admin(env, 'keys', 'create', '--account', partner.accountId, '--type', 'wallet');
  // The test helpers (preview) answer test keys only: the hooks call them with this one (docs/testmode.md).
  const testPartner = await admin(env, 'keys', 'create', '--account', partner.accountId, '--type', 'partner', '--mode', 'test');
  const other = await admin(env, 'accounts', 'create', '--name', 'Contract gate other partner');
  const out = {
    accountId: partner.accountId,
    partnerKey: partner.apiKey,
    walletKey: wallet.apiKey,
    testPartnerKey: testPartner.apiKey,
    otherPartnerKey: other.apiKey,
    skipped: [],
  };

  const call = async (operationId, method, p, { body, headers = {} } = {}) => {
    const r = await fetch(url + p, {
      method,
      headers: { 'Api-Key': partner.apiKey, 'PAY-Version': version, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (r.status === 501 && pending.has(operationId)) {
      out.skipped.push(operationId);
      return null;
    }
    if (r.status >= 300) throw new Error(`seed: ${operationId} ${method} ${p} answered ${r.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text);
  };

  const m = await call('createMerchant', 'POST', '/v1/merchants', {
    body: {
      merchantName: 'Contract Gate Coffee',
      merchantEmail: 'owner@contract-gate.example.com',
      iconUrl: 'https://cdn.example.com/logo.png',
    },
    headers: { 'Idempotency-Key': 'contract-seed-merchant' },
  });
  out.merchantId = m.merchant.id;
  // A second merchant, so that a one-item page of the list has a next page: its cursor is a real one.
  await call('createMerchant', 'POST', '/v1/merchants', {
    body: { merchantName: 'Contract Gate Tea', merchantEmail: 'owner@tea.contract-gate.example.com' },
    headers: { 'Idempotency-Key': 'contract-seed-merchant-2' },
  });
  out.cursor = (await call('listMerchants', 'GET', '/v1/merchants?limit=1')).nextCursor;

  // The chain the service settles on: its USDC and USDT, as `admin devnet info` names them.
  const devnet = await admin(env, 'devnet', 'info');
  const [usdc, usdt] = ['USDC', 'USDT'].map((symbol) => devnet.assets.find((a) => a.symbol === symbol).asset);
  const destination = `${devnet.chainId}:0x71C7656EC7ab88b098defB751B7401B5f6d8976F`;
  const s = await call('createCryptoSettlements', 'POST', `/v1/merchants/${out.merchantId}/settlements/crypto`, {
    body: { settlements: [usdc, usdt].map((asset) => ({ asset, destination })) },
    headers: { 'Idempotency-Key': 'contract-seed-settlement' },
  });
  if (s) out.settlementId = s.settlements[0].id;
  // The buyer: a new key each run, funded with a million USDC and a million USDT (10 000 payments of the hooks'
  // size and more in each) and one ether of gas (its approve of Permit2).
  out.buyerKey = generatePrivateKey();
  const buyer = privateKeyToAccount(out.buyerKey).address;
  for (const [asset, amount] of [
    [usdc, 10n ** 12n],
    [usdt, 10n ** 12n],
    [`${devnet.chainId}/slip44:60`, 10n ** 18n],
  ])
    await admin(env, 'devnet', 'fund', '--address', buyer, '--asset', asset, '--amount', String(amount));

  const p = await call('createPayment', 'POST', '/v1/payments', {
    body: { referenceId: 'contract-seed-1', amount: { unit: 'iso4217/USD', value: '1000' } },
    headers: { 'Merchant-Id': out.merchantId, 'Idempotency-Key': 'contract-seed-payment' },
  });
  if (p) out.paymentId = p.paymentId;
  // A second payment, so that a one-item page of the payment lists has a next page (default sort).
  await call('createPayment', 'POST', '/v1/payments', {
    body: { referenceId: 'contract-seed-2', amount: { unit: 'iso4217/USD', value: '2500' } },
    headers: { 'Merchant-Id': out.merchantId, 'Idempotency-Key': 'contract-seed-payment-2' },
  });
  const page = await call('listPayments', 'GET', '/v1/payments?limit=1');
  if (page) out.paymentsCursor = page.nextCursor;
  out.x402SettlementId = await x402Settlement(url, partner.apiKey, out.buyerKey, usdc, devnet.rpcUrl, out.merchantId);
  return out;
}

/**
 * An x402 settlement of the account (preview), for `GET /x402/settlements/{id}`: the buyer pays 0.01 USDC to the
 * account's deposit address for the merchant (the account's collector mode, docs/x402.md), signed by the official x402 client
 * scheme and settled through the gate's facilitator. Its id.
 */
async function x402Settlement(url, apiKey, buyerKey, usdc, rpcUrl, merchantId) {
  const [network, token] = [usdc.split('/')[0], usdc.split(':').pop()];
  // The token's EIP-712 domain, as the chain has it (FiatToken: its name and version).
  const chain = createPublicClient({ transport: http(rpcUrl) });
  const abi = parseAbi(['function name() view returns (string)', 'function version() view returns (string)']);
  const [name, version] = await Promise.all(
    ['name', 'version'].map((functionName) => chain.readContract({ address: token, abi, functionName })),
  );
  // Collector mode pays the account's own deposit address (docs/x402.md "Whose payTo"), read from its settings.
  const settings = await fetch(`${url}/v1/account/settings`, { headers: { 'Api-Key': apiKey, 'PAY-Version': '2026-02-19.preview' } });
  const { payTo } = (await settings.json()).settings.x402;
  const requirements = {
    scheme: 'exact',
    network,
    asset: token,
    amount: '10000',
    payTo,
    maxTimeoutSeconds: 60,
    extra: { name, version, merchantId },
  };
  const { payload } = await new ExactEvmScheme(privateKeyToAccount(buyerKey)).createPaymentPayload(2, requirements);
  const r = await fetch(`${url}/x402/settle`, {
    method: 'POST',
    headers: { 'Api-Key': apiKey, 'PAY-Version': '2026-02-19.preview', 'content-type': 'application/json' },
    body: JSON.stringify({
      x402Version: 2,
      paymentPayload: { x402Version: 2, resource: { url: 'https://contract-gate.example.com/report' }, accepted: requirements, payload },
      paymentRequirements: requirements,
    }),
  });
  const body = await r.json();
  if (r.status !== 200 || typeof body.paymentId !== 'string')
    throw new Error(`seed: x402 settle answered ${r.status}: ${JSON.stringify(body).slice(0, 500)}`);
  return body.paymentId;
}
