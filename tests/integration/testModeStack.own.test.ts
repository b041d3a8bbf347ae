import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { devnetSetBalance, type RunningAnvil } from '../../src/chain/anvil';
import { devnetAssetId } from '../../src/chain/devnet';
import { devnetMint, startDevnetChain } from '../../src/chain/devnetTokens';
import { DEVNET2_CHAIN_ID, DEVNET_USDC, freePort, rpcUrl, USDC_TOKEN } from '../support/chain';
import { eventually } from '../support/eventually';
import { admin, client, newAccount, newKey, startTestService, TestService } from '../support/service';
import { describeIsolation, side, snapshot, type Side } from '../support/testMode';
import { startReceiver, type Receiver } from '../support/webhookReceiver';

// The "done when" of issue 32: production settings, a live chain (a second local anvil, configured as a real chain
// is: CHAINS, its RPC URL, relayer key, fee ceiling) and the embedded development chain for test mode, which the
// service starts itself (no DEVNET_RPC_URL) with its state under DEVNET_DIR. For the same account, a live payment is
// paid on the live chain with a live key while a test payment is paid on the embedded chain with a test key; each
// payment is offered its own mode's chain only; each mode's objects are invisible to the other's keys in every
// operation; the reset leaves live data as it was.

// An anvil of its own with the second development chain's id (the devnet token contracts deploy only there), configured
// as a real chain: the service starts the first development chain only (a configured chain id is that chain's).
const LIVE_CHAIN_ID = DEVNET2_CHAIN_ID;
const LIVE_USDC = devnetAssetId('USDC', LIVE_CHAIN_ID);

/** A transaction's receipt on the chain at `url`, or null when that chain has none. */
async function receipt(url: string, hash: string) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [hash] }),
  });
  return ((await r.json()) as { result: { status: string } | null }).result;
}

/**
 * Pays the side's payment with `buyer`, asking options for `accounts`: only `offered` (the chain of the payment's
 * mode) may be offered. Answers the paid payment's info once it succeeded.
 */
async function pay(s: Side, buyer: PrivateKeyAccount, accounts: string[], offered: string) {
  const o = await s.wallet('POST', `/v1/gateway/payment/${s.paymentId}/options`, { body: { accounts } });
  expect(o.status).toBe(200);
  expect(o.body.options.map((x: { account: string }) => x.account)).toEqual([offered]);
  const opt = o.body.options[0];
  const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
  const c = await s.wallet('POST', `/v1/gateway/payment/${s.paymentId}/confirm`, {
    body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] },
  });
  expect(c.status).toBe(200);
  const status = () => s.wallet('GET', `/v1/gateway/payment/${s.paymentId}/status?maxPollMs=2000`);
  expect((await eventually(status, (r) => r.body.status === 'succeeded', 60_000)).body.isFinal).toBe(true);
  const p = (await s.partner('GET', `/v1/payments/${s.paymentId}`, { headers: { 'Merchant-Id': s.merchantId } })).body;
  return p.info as { txId: string; optionAmount: { unit: string } };
}

describe('test mode beside a live chain, with production settings', () => {
  let chain: RunningAnvil;
  let dir: string;
  let svc: TestService;
  let rx: Receiver;
  let accountId: string;
  let live: Side;
  let test: Side;
  let buyer: PrivateKeyAccount;
  let embedded: string;
  const devnetDir = () => path.join(dir, 'devnet');

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-live-chain-'));
    chain = await startDevnetChain({ dir, port: await freePort(), chainId: LIVE_CHAIN_ID });
    const port = await freePort();
    const relayerKey = generatePrivateKey();
    await devnetSetBalance(chain.rpcUrl, privateKeyToAccount(relayerKey).address);
    await admin(
      ...['assets', 'add', '--asset', LIVE_USDC, '--symbol', 'USDC', '--name', 'USD Coin', '--decimals', '6', '--peg', 'USD'],
      ...['--network-name', 'Live chain', '--eip712-name', 'USD Coin', '--eip712-version', '2'],
    );
    svc = await startTestService({
      NODE_ENV: 'production',
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      METRICS_PUBLIC: 'true',
      CHAINS: String(LIVE_CHAIN_ID),
      [`CHAIN_${LIVE_CHAIN_ID}_RPC_URL`]: chain.rpcUrl,
      [`CHAIN_${LIVE_CHAIN_ID}_RELAYER_KEYS`]: relayerKey,
      [`CHAIN_${LIVE_CHAIN_ID}_MAX_FEE_PER_GAS_WEI`]: '100000000000',
      [`CHAIN_${LIVE_CHAIN_ID}_CONFIRMATIONS`]: '1',
      ...{ DEVNET_RPC_URL: '', DEVNET2_RPC_URL: '', DEVNET_DIR: devnetDir(), DEVNET_PORT: String(port), DEVNET_RELAYER_KEYS: '' },
    });
    embedded = `http://127.0.0.1:${port}`;
    rx = await startReceiver();
    const acct = await newAccount('Both modes');
    accountId = acct.accountId;
    const key = (type: 'partner' | 'wallet', mode: 'live' | 'test') => newKey(accountId, type, undefined, mode);
    const [testKey, testWallet, liveWallet] = await Promise.all([key('partner', 'test'), key('wallet', 'test'), key('wallet', 'live')]);
    // Each mode's merchant settles on both chains: the options say which chain serves which mode.
    const settlements = [LIVE_USDC, DEVNET_USDC];
    live = await side(svc.url, { apiKey: acct.apiKey, walletKey: liveWallet.apiKey }, { hooksUrl: rx.url, settlements });
    test = await side(svc.url, { apiKey: testKey.apiKey, walletKey: testWallet.apiKey }, { hooksUrl: rx.url, settlements });
    buyer = privateKeyToAccount(generatePrivateKey());
    await Promise.all([chain.rpcUrl, embedded].map((url) => devnetMint(url, USDC_TOKEN, buyer.address, 1_000_000n)));
  }, 120_000);
  afterAll(async () => {
    await rx?.close();
    await svc?.close();
    await chain?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const buyerOn = (chainId: number) => `eip155:${chainId}:${buyer.address}`;

  const payOn = (s: Side, chainId: number) => pay(s, buyer, [buyerOn(LIVE_CHAIN_ID), buyerOn(31337)], buyerOn(chainId));

  it("x402's payment requirements of each payment name only the chain of its mode", async () => {
    for (const [s, chainId] of [
      [live, LIVE_CHAIN_ID],
      [test, 31337],
    ] as const) {
      const unpaid = await s.wallet('GET', `/v1/gateway/payment/${s.paymentId}/x402`);
      expect(unpaid.status).toBe(402);
      const required = JSON.parse(Buffer.from(unpaid.headers.get('payment-required')!, 'base64').toString());
      expect(required.accepts.map((a: { network: string }) => a.network)).toEqual([`eip155:${chainId}`]);
    }
  });

  it('pays the live payment on the live chain and the test payment on the embedded chain, at the same time', async () => {
    const [paidLive, paidTest] = await Promise.all([payOn(live, LIVE_CHAIN_ID), payOn(test, 31337)]);
    expect(paidLive.optionAmount.unit).toBe(`caip19/${LIVE_USDC}`);
    expect(paidTest.optionAmount.unit).toBe(`caip19/${DEVNET_USDC}`);
    // Each transaction is on its own chain, and only there.
    expect(await receipt(chain.rpcUrl, paidLive.txId)).toMatchObject({ status: '0x1' });
    expect(await receipt(chain.rpcUrl, paidTest.txId)).toBeNull();
    expect(await receipt(embedded, paidTest.txId)).toMatchObject({ status: '0x1' });
    // The chain the service started, not the suite's development chain; its state and relayer key in DEVNET_DIR.
    expect(await receipt(rpcUrl(), paidTest.txId)).toBeNull();
    const kept = await eventually(
      async () => fs.readdirSync(devnetDir()),
      (f) => f.includes('anvil-state.json'),
    );
    expect(kept).toEqual(expect.arrayContaining(['anvil-state.json', 'relayer-keys.json', 'devnet.json']));
    expect(kept).not.toContain('anvil-state-31338.json');
    const balance = async (s: Side) => (await s.partner('GET', '/v1/balance')).body;
    expect(await balance(live)).toMatchObject({ livemode: true, balances: [{ asset: LIVE_USDC }] });
    expect(await balance(test)).toMatchObject({ livemode: false, balances: [{ asset: DEVNET_USDC }] });
    const hooks = await rx.until((all) => all.filter((r) => r.body?.type === 'payment.succeeded').length >= 2);
    const succeeded = hooks.filter((r) => r.body.type === 'payment.succeeded');
    expect(new Set(succeeded.map((r) => `${r.body.data.payment.paymentId}:${r.body.livemode}`))).toEqual(
      new Set([`${live.paymentId}:true`, `${test.paymentId}:false`]),
    );
  }, 120_000);

  describeIsolation(
    () => live,
    () => test,
  );

  it('admin testmode reset removes the test payment and its ledger, and leaves the live ones as they were', async () => {
    const liveBefore = [await snapshot(live), (await live.partner('GET', '/v1/balance')).body];
    const out = await admin('testmode', 'reset', '--account', accountId);
    expect(out).toMatchObject({ deleted: { payments: 1, merchants: 1, ledger_journals: expect.any(Number) } });
    expect((out.deleted as unknown as Record<string, number>).ledger_journals).toBeGreaterThan(0);
    expect((await test.partner('GET', '/v1/payments')).body.data).toEqual([]);
    expect((await test.partner('GET', '/v1/balance')).body).toEqual({ balances: [], livemode: false });
    expect([await snapshot(live), (await live.partner('GET', '/v1/balance')).body]).toEqual(liveBefore);
  });
});

// When a production service has no embedded test chains: a configured test chain takes test mode instead, and
// TEST_MODE=off leaves test mode without a chain: a settlement there is refused, and so is a payment no chain of its
// mode could be paid on (docs/api.md, "Settlements").
/** A new merchant of the key's account (and mode), through the API. */
async function merchantOf(svc: TestService, apiKey: string): Promise<string> {
  const m = await client(svc.url, { 'Api-Key': apiKey })('POST', '/v1/merchants', {
    body: { merchantName: 'Stack', merchantEmail: 'm@x.io' },
    headers: { 'Idempotency-Key': `k-${randomBytes(8).toString('hex')}` },
  });
  if (m.status !== 201) throw new Error(m.text);
  return m.body.merchant.id as string;
}

describe('a production service without the embedded test chains', () => {
  const PROD = { NODE_ENV: 'production', DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'), METRICS_PUBLIC: 'true' };
  let live: Record<string, string>;
  let rx: Receiver;
  beforeAll(async () => {
    // A live chain that is configured but never reached: the test side never asks it for anything.
    const base = {
      CHAINS: '8453',
      CHAIN_8453_RPC_URL: `http://127.0.0.1:${await freePort()}`,
      CHAIN_8453_RELAYER_KEYS: generatePrivateKey(),
    };
    live = { ...base, CHAIN_8453_MAX_FEE_PER_GAS_WEI: '100000000000' };
    rx = await startReceiver();
  });
  afterAll(() => rx?.close());

  it('a configured test chain takes the test payments instead: no embedded chain runs', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-test-chain-'));
    const chain = await startDevnetChain({ dir, port: await freePort(), chainId: DEVNET2_CHAIN_ID });
    const relayerKey = generatePrivateKey();
    await devnetSetBalance(chain.rpcUrl, privateKeyToAccount(relayerKey).address);
    const p = `CHAIN_${DEVNET2_CHAIN_ID}_`;
    const testChain = { [`${p}RPC_URL`]: chain.rpcUrl, [`${p}RELAYER_KEYS`]: relayerKey, [`${p}MAX_FEE_PER_GAS_WEI`]: '100000000000' };
    // The suite's development chain is still named (DEVNET_RPC_URL): the configured test chain keeps it out.
    const svc = await startTestService({ ...PROD, ...live, CHAINS: `8453,${DEVNET2_CHAIN_ID}`, ...testChain, [`${p}MODE`]: 'test' });
    try {
      const acct = await newAccount('Configured test chain');
      const key = (type: 'partner' | 'wallet', mode: 'live' | 'test') => newKey(acct.accountId, type, undefined, mode);
      const [testKey, testWallet] = await Promise.all([key('partner', 'test'), key('wallet', 'test')]);
      await admin(
        ...['assets', 'add', '--asset', LIVE_USDC, '--symbol', 'USDC', '--name', 'USD Coin', '--decimals', '6', '--peg', 'USD'],
        ...['--network-name', 'Live chain', '--eip712-name', 'USD Coin', '--eip712-version', '2'],
      );
      // The embedded chain does not run: a settlement on it is refused.
      const refused = await client(svc.url, { 'Api-Key': testKey.apiKey })(
        'POST',
        `/v1/merchants/${await merchantOf(svc, testKey.apiKey)}/settlements/crypto`,
        {
          body: { settlements: [{ asset: DEVNET_USDC, destination: `eip155:31337:${privateKeyToAccount(generatePrivateKey()).address}` }] },
          headers: { 'Idempotency-Key': `k-${randomBytes(8).toString('hex')}` },
        },
      );
      expect([refused.status, refused.body.code]).toEqual([422, 'chain_not_served']);
      const test = await side(
        svc.url,
        { apiKey: testKey.apiKey, walletKey: testWallet.apiKey },
        { hooksUrl: rx.url, settlements: [LIVE_USDC] },
      );
      const buyer = privateKeyToAccount(generatePrivateKey()).address;
      const accounts = [`eip155:${DEVNET2_CHAIN_ID}:${buyer}`, `eip155:31337:${buyer}`];
      const offered = async (s: Side) =>
        (await s.wallet('POST', `/v1/gateway/payment/${s.paymentId}/options`, { body: { accounts } })).body.options.map(
          (o: { account: string }) => o.account,
        );
      expect(await offered(test)).toEqual([accounts[0]]);
      // A live merchant settling only on the test chain: a live payment nobody could pay is refused.
      const liveMerchant = await merchantOf(svc, acct.apiKey);
      const liveApi = client(svc.url, { 'Api-Key': acct.apiKey });
      const settled = await liveApi('POST', `/v1/merchants/${liveMerchant}/settlements/crypto`, {
        body: { settlements: [{ asset: LIVE_USDC, destination: `eip155:${DEVNET2_CHAIN_ID}:${buyer}` }] },
        headers: { 'Idempotency-Key': `k-${randomBytes(8).toString('hex')}` },
      });
      expect(settled.status).toBe(201);
      const livePayment = await liveApi('POST', '/v1/payments', {
        body: { referenceId: 'live-1', amount: { unit: 'iso4217/USD', value: '100' } },
        headers: { 'Merchant-Id': liveMerchant },
      });
      expect([livePayment.status, livePayment.body.code, livePayment.body.reason]).toEqual([409, 'invalid_state', 'asset_not_served']);
      // Not a development chain of this instance: the helpers are not there.
      expect((await test.partner('POST', `/v1/test-helpers/payments/${test.paymentId}/expire`)).status).toBe(404);
    } finally {
      await svc.close();
      await chain.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('TEST_MODE=off leaves them out: settling there is refused, so is a test payment nobody could pay, and no test helper is there', async () => {
    // The suite's development chain is still named (DEVNET_RPC_URL): only the setting keeps it out.
    const svc = await startTestService({ ...PROD, ...live, TEST_MODE: 'off' });
    try {
      const acct = await newAccount('Test mode off');
      const testKey = await newKey(acct.accountId, 'partner', undefined, 'test');
      const partner = client(svc.url, { 'Api-Key': testKey.apiKey, 'PAY-Version': '2026-02-19.preview' });
      const merchantId = await merchantOf(svc, testKey.apiKey);
      const wallet = `0x${randomBytes(20).toString('hex')}`;
      const settle = (asset: string, chain: string) =>
        partner('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
          body: { settlements: [{ asset, destination: `${chain}:${wallet}` }] },
          headers: { 'Idempotency-Key': `k-${randomBytes(8).toString('hex')}` },
        });
      // The embedded chain does not run: a settlement there is refused.
      const refused = await settle(DEVNET_USDC, 'eip155:31337');
      expect([refused.status, refused.body.code]).toEqual([422, 'chain_not_served']);
      // The live chain's node is never reached here: its blacklist cannot be read, so a settlement there is not taken.
      const base = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
      expect([(await settle(base, 'eip155:8453')).status]).toEqual([503]);
      // One stored before (as it stands): no chain takes test payments, so a payment nobody could pay is refused.
      await svc.db('crypto_settlements').insert({
        id: `crypto_${randomBytes(8).toString('hex')}`,
        merchant_id: merchantId,
        asset: base,
        chain_id: 'eip155:8453',
        destination: `eip155:8453:${getAddress(wallet)}`,
      });
      const p = await partner('POST', '/v1/payments', {
        body: { referenceId: 'test-1', amount: { unit: 'iso4217/USD', value: '100' } },
        headers: { 'Merchant-Id': merchantId },
      });
      expect([p.status, p.body.code, p.body.reason]).toEqual([409, 'invalid_state', 'asset_not_served']);
      expect(await partner('POST', '/v1/test-helpers/blacklist', { body: { account: `eip155:31337:${wallet}` } })).toMatchObject({
        status: 404,
        body: { code: 'not_found' },
      });
    } finally {
      await svc.close();
    }
  });
});
