import { decodePaymentResponseHeader } from '@x402/fetch';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { balanceOf, newBuyer } from '../support/chain';
import { eventually } from '../support/chainSuite';
import { merchantWithSettlement } from '../support/fixtures';
import { startRpcProxy } from '../support/rpcProxy';
import { client, setAccountMode, startTestService, type TestService } from '../support/service';
import { NETWORK, payingFetch, resourceServer, signedBody } from '../support/x402';
const EIP3009 = { name: 'USD Coin', version: '2', assetTransferMethod: 'eip3009' };
let svc: TestService;
/** The chain's RPC node as the service sees it, to refuse broadcasts (not behind the contract gate's external service). */
let rpc: Awaited<ReturnType<typeof startRpcProxy>>;

beforeAll(async () => {
  rpc = await startRpcProxy(process.env.DEVNET_RPC_URL!);
  svc = await startTestService({ DEVNET_RPC_URL: rpc.url });
}, 60_000);
afterAll(async () => {
  await svc.close();
  await rpc?.close();
});
jest.setTimeout(120_000);

async function directPartner() {
  const m = await merchantWithSettlement(svc, 'x402 wire');
  await setAccountMode(m.accountId, 'direct');
  return { ...m, x402: client(svc.directUrl, { 'Api-Key': m.apiKey }) };
}

it('settlement_pending carries the signed transfer hash, the one that is final later', async () => {
  const p = await directPartner();
  const buyer = await newBuyer(10_000n);
  const body = await signedBody(buyer, { payTo: p.wallet, amount: '10000', extra: EIP3009 });
  rpc.refuse('eth_sendRawTransaction');
  let paymentId: string;
  try {
    const first = await p.x402('POST', '/x402/settle?maxPollMs=0', { body });
    expect(first.body).toMatchObject({ success: false, errorReason: 'settlement_pending', paymentId: expect.any(String) });
    paymentId = first.body.paymentId;
    // Signed and stored, its broadcast refused: still pending, with the hash the relayer sends.
    const pending = await eventually(async () => {
      const r = await p.x402('POST', '/x402/settle?maxPollMs=0', { body });
      expect(r.body).toMatchObject({
        success: false,
        errorReason: 'settlement_pending',
        transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      return r.body;
    });
    const [tx] = await svc.db('chain_transactions').where({ payment_id: first.body.paymentId });
    expect(pending.transaction).toBe(tx.tx_hash);
    const polled = await p.x402('GET', `/x402/settlements/${first.body.paymentId}?maxPollMs=0`);
    expect(polled.body).toMatchObject({ errorReason: 'settlement_pending', transaction: tx.tx_hash });
  } finally {
    rpc.up();
  }
  const done = await p.x402('GET', `/x402/settlements/${paymentId}?maxPollMs=25000`);
  expect(done.body).toMatchObject({
    success: true,
    transaction: (await svc.db('chain_transactions').where({ payment_id: paymentId }).first()).tx_hash,
  });
  expect(await balanceOf(p.wallet)).toBe(10_000n);
});

/**
 * A facilitator slower than the resource server's patience, in front of this service's: its first settle answers as
 * this service does once its wait ran out after the relayer signed (settlement_pending with the hash), and then lets
 * broadcasts through; every later request is passed on as it is.
 */
async function slowFacilitator(onFirstPending: () => void) {
  const settles: { transaction: string; errorReason?: string; success: boolean }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString();
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => ['api-key', 'content-type'].includes(k))) as Record<
        string,
        string
      >;
      const first = req.url === '/x402/settle' && settles.length === 0;
      const forward = () =>
        fetch(`${svc.directUrl}${req.url}${first ? '?maxPollMs=500' : ''}`, {
          method: req.method,
          headers,
          body: req.method === 'GET' ? undefined : body,
        });
      let r = await forward();
      let text = await r.text();
      if (req.url === '/x402/settle') {
        for (let i = 0; first && i < 40 && JSON.parse(text).transaction === ''; i++) {
          r = await forward();
          text = await r.text();
        }
        settles.push(JSON.parse(text));
        if (first) onFirstPending();
      }
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    settles,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

it('@x402/core settles again, once, on settlement_pending with the hash: the paid request is served', async () => {
  const p = await directPartner();
  const buyer = await newBuyer(10_000n);
  rpc.refuse('eth_sendRawTransaction');
  const facilitator = await slowFacilitator(() => rpc.up());
  const shop = await resourceServer(facilitator.url, p.apiKey, p.wallet, '10000', { assetTransferMethod: 'eip3009' });
  try {
    const res = await payingFetch(buyer)(shop.url);
    expect(facilitator.settles.map((s) => [s.success, s.errorReason ?? null])).toEqual([
      [false, 'settlement_pending'],
      [true, null],
    ]);
    expect(facilitator.settles[0].transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ content: 'paid for' });
    const settled = decodePaymentResponseHeader(res.headers.get('payment-response')!);
    expect(settled).toMatchObject({ success: true, network: NETWORK, transaction: facilitator.settles[0].transaction });
    expect(await balanceOf(p.wallet)).toBe(10_000n);
  } finally {
    rpc.up();
    await shop.close();
    await facilitator.close();
  }
});
