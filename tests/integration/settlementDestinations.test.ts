import { getAddress } from 'viem';
import { devnetAssetId, devnetTokenAddress } from '../../src/chain/devnet';
import { DEVNET_USDC, newBuyer, newWallet, USDC_TOKEN } from '../support/chain';
import { flow } from '../support/chainSuite';
import { merchantWithSettlement, uniqueKey, USDC_BASE } from '../support/fixtures';
import { client, newAccount, newKey, startTestService, TestService } from '../support/service';

// Settlements that can never work are refused when created and when their destination changes (docs/api.md,
// "Settlements"), on both versions: 422 with a code per reason and the refused entries in `issues`, nothing stored.
// And a merchant whose settlements are all on chains this instance does not serve cannot take payments.

const VERSIONS = ['2026-02-18', '2026-02-19.preview'];
const C = 'eip155:31337';
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const ZERO = '0x0000000000000000000000000000000000000000';
const USDT = devnetAssetId('USDT');

let svc: TestService;
let apiKey: string;
/** This instance's collector for the development chain (a payment option's `to`), and a blacklisted address. */
let collector: string;
let listed: string;

beforeAll(async () => {
  svc = await startTestService();
  apiKey = (await newAccount('Destinations')).apiKey;
  const shop = await merchantWithSettlement(svc, 'Collector Shop');
  const gw = client(svc.url, { 'Api-Key': (await newKey(shop.accountId, 'wallet')).apiKey });
  const f = flow(svc.url, shop, gw);
  const { td } = await f.option(await f.pay('100'), await newBuyer());
  collector = getAddress(td.message.to);
  // The test helper blacklists the address on every token of the development chain (USDC, EURC: FiatToken; USDT: Tether).
  const tester = await merchantWithSettlement(svc, 'Blacklister', 'test');
  listed = newWallet();
  const b = await client(svc.url, { 'Api-Key': tester.apiKey, 'PAY-Version': '2026-02-19.preview' })('POST', '/v1/test-helpers/blacklist', {
    body: { account: `${C}:${listed}` },
  });
  if (b.status !== 200) throw new Error(b.text);
}, 120_000);
afterAll(() => svc.close());

const api = (version: string) => client(svc.url, { 'Api-Key': apiKey, 'PAY-Version': version });
const newMerchant = async (version: string) =>
  (
    await api(version)('POST', '/v1/merchants', {
      body: { merchantName: 'Dest', merchantEmail: 'd@x.io' },
      headers: { 'Idempotency-Key': uniqueKey() },
    })
  ).body.merchant.id as string;
const post = (version: string, mid: string, settlements: { asset: string; destination: string }[]) =>
  api(version)('POST', `/v1/merchants/${mid}/settlements/crypto`, { body: { settlements }, headers: { 'Idempotency-Key': uniqueKey() } });
const stored = (mid: string) => svc.db('crypto_settlements').where({ merchant_id: mid }).orderBy('asset');

const refused: [string, () => { asset: string; destination: string }, string, string][] = [
  ['the zero address', () => ({ asset: DEVNET_USDC, destination: `${C}:${ZERO}` }), 'destination_zero_address', 'destination'],
  [
    'the token contract itself',
    () => ({ asset: DEVNET_USDC, destination: `${C}:${USDC_TOKEN}` }),
    'destination_token_contract',
    'destination',
  ],
  ['Permit2', () => ({ asset: DEVNET_USDC, destination: `${C}:${PERMIT2.toLowerCase()}` }), 'destination_permit2', 'destination'],
  [
    "this instance's collector",
    () => ({ asset: DEVNET_USDC, destination: `${C}:${collector}` }),
    'destination_instance_key',
    'destination',
  ],
  [
    'an address USDC blacklists (isBlacklisted)',
    () => ({ asset: DEVNET_USDC, destination: `${C}:${listed}` }),
    'destination_blacklisted',
    'destination',
  ],
  [
    'an address USDT blacklists (isBlackListed)',
    () => ({ asset: USDT, destination: `${C}:${listed}` }),
    'destination_blacklisted',
    'destination',
  ],
  [
    'an asset on a chain this instance does not serve',
    () => ({ asset: USDC_BASE, destination: `eip155:8453:${newWallet()}` }),
    'chain_not_served',
    'asset',
  ],
  [
    'an asset this instance does not serve on a chain it serves',
    () => ({ asset: `${C}/erc20:0x0000000000000000000000000000000000000001`, destination: `${C}:${newWallet()}` }),
    'asset_not_served',
    'asset',
  ],
];

describe.each(VERSIONS)('settlement destinations at %s', (version) => {
  it.each(refused)('creating one to %s is 422 and stores nothing', async (_what, entry, code, field) => {
    const mid = await newMerchant(version);
    const r = await post(version, mid, [entry()]);
    expect([r.status, r.body.code]).toEqual([422, code]);
    expect(r.body).toEqual({
      code,
      message: expect.any(String),
      issues: [{ field: `/settlements/0/${field}`, message: expect.any(String) }],
      requestId: expect.stringMatching(/^req_/),
    });
    expect(await stored(mid)).toEqual([]);
  });

  it.each(refused.filter(([, , , field]) => field === 'destination'))(
    'changing one to %s is 422 and leaves the destination',
    async (_what, entry, code) => {
      const mid = await newMerchant(version);
      const { asset, destination } = entry();
      const before = `${C}:${newWallet()}`;
      const created = await post(version, mid, [{ asset, destination: before }]);
      expect(created.status).toBe(201);
      const r = await api(version)('PUT', `/v1/merchants/${mid}/settlements/crypto/${created.body.settlements[0].id}`, {
        body: { destination },
      });
      expect([r.status, r.body.code, r.body.issues]).toEqual([422, code, [{ field: '/destination', message: expect.any(String) }]]);
      expect((await stored(mid)).map((s) => s.destination)).toEqual([before]);
    },
  );

  it('one refused entry among good ones refuses the request: every refused entry is an issue, none is stored', async () => {
    const mid = await newMerchant(version);
    const r = await post(version, mid, [
      { asset: DEVNET_USDC, destination: `${C}:${newWallet()}` },
      { asset: devnetAssetId('EURC'), destination: `${C}:${devnetTokenAddress('EURC')}` },
      { asset: USDT, destination: `${C}:${ZERO}` },
    ]);
    expect([r.status, r.body.code]).toEqual([422, 'destination_token_contract']);
    expect(r.body.issues.map((i: { field: string }) => i.field)).toEqual(['/settlements/1/destination', '/settlements/2/destination']);
    expect(await stored(mid)).toEqual([]);
    // The good ones alone are taken.
    const ok = await post(version, mid, [{ asset: DEVNET_USDC, destination: `${C}:${newWallet()}` }]);
    expect(ok.status).toBe(201);
    expect(await stored(mid)).toHaveLength(1);
  });
});

describe('payments of a merchant whose settlements no served chain takes', () => {
  it.each(VERSIONS)('are refused at creation, 409 invalid_state with reason asset_not_served (%s)', async (version) => {
    const mid = await newMerchant(version);
    // Stored before this service refused such settlements (or its chain was since removed): written as it stands.
    await svc.db('crypto_settlements').insert({
      id: `crypto_${uniqueKey('legacy').replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 30),
      merchant_id: mid,
      asset: USDC_BASE,
      chain_id: 'eip155:8453',
      destination: `eip155:8453:${newWallet()}`,
    });
    const asMerchant = client(svc.url, { 'Api-Key': apiKey, 'Merchant-Id': mid, 'PAY-Version': version });
    const r = await asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('o'), amount: { unit: 'iso4217/USD', value: '100' } },
    });
    expect([r.status, r.body.code, r.body.reason]).toEqual([409, 'invalid_state', 'asset_not_served']);
    expect(await svc.db('payments').where({ merchant_id: mid })).toEqual([]);
    // A served settlement beside it: payments are taken again.
    expect((await post(version, mid, [{ asset: DEVNET_USDC, destination: `${C}:${newWallet()}` }])).status).toBe(201);
    const ok = await asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('o'), amount: { unit: 'iso4217/USD', value: '100' } },
    });
    expect(ok.status).toBe(201);
  });
});
