import type { AddressInfo } from 'node:net';
import express from 'express';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme as ServerScheme } from '@x402/evm/exact/server';
import { ExactEvmScheme as ClientScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { getAddress, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { randomBytes } from 'node:crypto';
import { devnetAssets } from '../../src/chain/devnet';
import { USDC_TOKEN } from './chain';
import type { client } from './service';

// x402 with the official packages (@x402/express, @x402/fetch, @x402/evm) against this service's facilitator, and
// payloads signed by hand for what the packages never send (refusals, replays, races).

export const NETWORK = 'eip155:31337' as const;
/** USDC's EIP-712 domain on the development chain, as the chain module deploys it. */
const usdc = devnetAssets().find((a) => a.symbol === 'USDC')!;
const DOMAIN = { name: usdc.eip712Name!, version: usdc.eip712Version! };

/** An @x402/express resource server whose facilitator is `<base>/x402`, selling GET /paid for `amount` USDC units to `payTo`. */
export async function resourceServer(base: string, apiKey: string, payTo: string, amount: string, extra: Record<string, unknown> = {}) {
  const facilitator = new HTTPFacilitatorClient({
    url: `${base}/x402`,
    createAuthHeaders: async () => ({ verify: { 'Api-Key': apiKey }, settle: { 'Api-Key': apiKey }, supported: {} }),
  });
  const server = new x402ResourceServer(facilitator).register(NETWORK, new ServerScheme());
  const app = express();
  const accepts = { scheme: 'exact', network: NETWORK, payTo, price: { amount, asset: USDC_TOKEN, extra: { ...DOMAIN, ...extra } } };
  app.use(paymentMiddleware({ 'GET /paid': { accepts, description: 'a paid resource' } }, server));
  app.get('/paid', (_req, res) => {
    res.json({ content: 'paid for' });
  });
  const http = await new Promise<import('node:http').Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/paid`,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

/** fetch that pays 402s with `buyer` through @x402/fetch. */
export const payingFetch = (buyer: PrivateKeyAccount) =>
  wrapFetchWithPaymentFromConfig(fetch, {
    schemes: [{ network: NETWORK, client: new ClientScheme(buyer) }],
    // The development chain's USDC is no default asset of x402's: allowed here, capped at USD 1.00.
    spendControls: { allowedAssets: [{ network: NETWORK, asset: USDC_TOKEN, maxAmountPerPayment: '1000000' }] },
  });

export interface Terms {
  payTo: string;
  amount: string;
  extra?: Record<string, unknown>;
  network?: string;
  asset?: string;
  scheme?: string;
}

/** A verify/settle body: an `exact` EIP-3009 authorization signed by `buyer`, with `over` changing what it signs. */
export async function signedBody(
  buyer: PrivateKeyAccount,
  t: Terms,
  over: Partial<{
    to: string;
    value: bigint;
    validAfter: bigint;
    validBefore: bigint;
    nonce: Hex;
    signer: PrivateKeyAccount;
    paymentId: string;
  }> = {},
) {
  const now = BigInt(Math.floor(Date.now() / 1000));
  const requirements = {
    scheme: t.scheme ?? 'exact',
    network: t.network ?? NETWORK,
    asset: t.asset ?? USDC_TOKEN,
    amount: t.amount,
    payTo: t.payTo,
    maxTimeoutSeconds: 60,
    extra: t.extra ?? DOMAIN,
  };
  const authorization = {
    from: buyer.address,
    to: getAddress(over.to ?? t.payTo),
    value: over.value ?? BigInt(t.amount),
    validAfter: over.validAfter ?? now - 600n,
    validBefore: over.validBefore ?? now + 60n,
    nonce: over.nonce ?? (`0x${randomBytes(32).toString('hex')}` as Hex),
  };
  const signature = await (over.signer ?? buyer).signTypedData({
    domain: { ...DOMAIN, chainId: 31337, verifyingContract: USDC_TOKEN },
    types: {
      TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'TransferWithAuthorization',
    message: authorization,
  });
  const wire = Object.fromEntries(Object.entries(authorization).map(([k, v]) => [k, String(v)]));
  return {
    x402Version: 2,
    paymentPayload: {
      x402Version: 2,
      resource: { url: 'https://api.example.com/report' },
      accepted: requirements,
      payload: { signature, authorization: wire },
      ...(over.paymentId ? { extensions: { 'payment-identifier': { info: { required: false, id: over.paymentId } } } } : {}),
    },
    paymentRequirements: requirements,
  };
}

/** The account's balance transactions of the last hour that belong to `paymentId`, read with a preview client of the account. */
export async function ledgerRowsOf(
  preview: ReturnType<typeof client>,
  paymentId: string,
): Promise<{ type: string; bucket: string; amount: string }[]> {
  const from = new Date(Date.now() - 3_600_000).toISOString();
  const to = new Date(Date.now() + 60_000).toISOString();
  const btx = await preview('GET', `/v1/reports/balance-transactions?from=${from}&to=${to}&limit=100`);
  expect(btx.status).toBe(200);
  return btx.body.data.filter((r: { paymentId: string | null }) => r.paymentId === paymentId);
}

/**
 * `rows` without collect_pending / collect_unpending pairs: a monitor pass that sees a collect mined before its head
 * shows the block books it pending, and reverses that once it is final (docs/ledger.md); such pairs net to nothing.
 */
export function settledRows<R extends { type: string; amount: string }>(rows: R[]): R[] {
  const pendings = rows.filter((r) => r.type === 'collect_pending' || r.type === 'collect_unpending');
  expect(pendings.filter((r) => r.type === 'collect_pending').length * 2).toBe(pendings.length);
  expect(pendings.reduce((sum, r) => sum + BigInt(r.amount), 0n)).toBe(0n);
  return rows.filter((r) => !pendings.includes(r));
}

/** The account's x402 `payTo` (its deposit address in collector mode, null in direct mode), as a partner reads it. */
export async function x402PayTo(call: ReturnType<typeof client>): Promise<string | null> {
  const r = await call('GET', '/v1/account/settings', { headers: { 'PAY-Version': '2026-02-19.preview' } });
  if (r.status !== 200) throw new Error(`GET /v1/account/settings: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.settings.x402.payTo;
}
