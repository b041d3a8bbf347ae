// A resource server that sells GET /report over x402 with the official @x402/express middleware, its facilitator
// being paygate's (<PAYGATE_URL>/x402, the partner's Api-Key sent through the facilitator client's auth-headers hook).
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';

export interface Sale {
  /** CAIP-2 network, the token's address and its EIP-712 domain, the price in its smallest units, and who is paid. */
  network: `${string}:${string}`;
  asset: string;
  domain: { name: string; version: string };
  amount: string;
  payTo: string;
}

export async function startResourceServer(paygateUrl: string, partnerKey: string, sale: Sale): Promise<{ url: string; server: Server }> {
  const auth = { 'Api-Key': partnerKey };
  const facilitator = new HTTPFacilitatorClient({
    url: `${paygateUrl}/x402`,
    createAuthHeaders: async () => ({ verify: auth, settle: auth, supported: {} }),
  });
  const resourceServer = new x402ResourceServer(facilitator).register(sale.network, new ExactEvmScheme());
  const app = express();
  const price = { amount: sale.amount, asset: sale.asset, extra: sale.domain };
  const routes = {
    'GET /report': { accepts: { scheme: 'exact', network: sale.network, payTo: sale.payTo, price }, description: 'A report' },
  };
  app.use(paymentMiddleware(routes, resourceServer));
  app.get('/report', (_req, res) => {
    res.json({ report: 'the numbers you paid for' });
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/report`, server };
}
