import { client, newAccount, startTestService, TestService } from '../support/service';
import { EURC_BASE, USDC_BASE, USDC_ETH, WALLET, WALLET2, uniqueKey } from '../support/fixtures';
import { devnetAssetId } from '../../src/chain/devnet';
import { DEVNET2_CHAIN_ID } from '../support/chain';

// Settlements name assets of chains this instance serves (settlementDestinations.test.ts has the refusals): the
// development chains' tokens here; the registry's other assets (Base, Ethereum) are on chains it does not serve.
const USDC = devnetAssetId('USDC');
const EURC = devnetAssetId('EURC');
const USDC2 = devnetAssetId('USDC', DEVNET2_CHAIN_ID);
const C = 'eip155:31337';
const C2 = `eip155:${DEVNET2_CHAIN_ID}`;

let svc: TestService;
let api: ReturnType<typeof client>;
/** Straight to the service, for requests that break the contract on purpose (the gate's Prism would answer them). */
let direct: ReturnType<typeof client>;
let other: ReturnType<typeof client>;

beforeAll(async () => {
  svc = await startTestService();
  const key = (await newAccount('Settler')).apiKey;
  api = client(svc.url, { 'Api-Key': key });
  direct = client(svc.directUrl, { 'Api-Key': key });
  other = client(svc.url, { 'Api-Key': (await newAccount('Outsider')).apiKey });
}, 60_000); // starts a service (and the admin command): slow on a busy machine
afterAll(() => svc.close());

const newMerchant = async () =>
  (
    await api('POST', '/v1/merchants', {
      body: { merchantName: 'S', merchantEmail: 's@x.io' },
      headers: { 'Idempotency-Key': uniqueKey() },
    })
  ).body.merchant.id as string;
const post = (mid: string, settlements: unknown[], key = uniqueKey(), c = api) =>
  c('POST', `/v1/merchants/${mid}/settlements/crypto`, { body: { settlements }, headers: { 'Idempotency-Key': key } });
const stored = async (mid: string) => svc.db('crypto_settlements').where({ merchant_id: mid }).orderBy('asset');

describe('asset registry', () => {
  it('is seeded with the major stablecoins and their real contracts', async () => {
    const rows = await svc.db('assets').select('id', 'symbol', 'decimals', 'peg_currency', 'network_name');
    const ids = rows.map((r: { id: string }) => r.id);
    for (const chain of ['1', '8453', '10', '42161', '137'])
      expect(
        ids.some((i: string) => i.startsWith(`eip155:${chain}/`) && rows.find((r: { id: string }) => r.id === i).symbol === 'USDC'),
      ).toBe(true);
    expect(ids).toEqual(
      expect.arrayContaining([
        USDC_BASE,
        USDC_ETH,
        EURC_BASE,
        'eip155:1/erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7',
        'eip155:137/erc20:0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
        'eip155:1/erc20:0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c',
      ]),
    );
    expect(rows.find((r: { id: string }) => r.id === EURC_BASE)).toMatchObject({ peg_currency: 'EUR', decimals: 6, network_name: 'Base' });
  });
});

describe('POST /v1/merchants/{id}/settlements/crypto', () => {
  it('creates entries in bulk with canonical (EIP-55) addresses; the merchant shows them', async () => {
    const mid = await newMerchant();
    const r = await post(mid, [
      { asset: USDC.toLowerCase().replace('eip155:31337/erc20:0x', 'eip155:31337/erc20:0x'), destination: `${C}:${WALLET.toLowerCase()}` },
      { asset: USDC2, destination: `${C2}:${WALLET2}` },
    ]);
    expect(r.status).toBe(201);
    expect(r.body.settlements).toEqual([
      { id: expect.stringMatching(/^crypto_/), asset: USDC, destination: `${C}:${WALLET}` },
      { id: expect.stringMatching(/^crypto_/), asset: USDC2, destination: `${C2}:0xde709f2102306220921060314715629080e2fb77` },
    ]);
    const m = await api('GET', `/v1/merchants/${mid}`);
    expect(m.body.merchant.settlements.crypto).toHaveLength(2);
    expect(m.body.merchant.settlements.fiat).toEqual([]);
    const list = await api('GET', `/v1/merchants/${mid}/settlements`);
    // Entries created together share created_at; ties go by (random) id, so compare as a set.
    expect(list.body).toEqual({ crypto: expect.arrayContaining(r.body.settlements), fiat: [] });
    expect(list.body.crypto).toHaveLength(r.body.settlements.length);
  });

  it.each([
    ['a destination on another chain', [{ asset: USDC, destination: `${C2}:${WALLET}` }], '/settlements/0/destination'],
    [
      'a bad EIP-55 checksum',
      [{ asset: USDC, destination: `${C}:0x52908400098527886E0F7030069857D2E4169Ee7` }],
      '/settlements/0/destination',
    ],
    ['a malformed asset', [{ asset: 'eip155:31337/erc20:0x12', destination: `${C}:${WALLET}` }], '/settlements/0/asset'],
    [
      'a non-erc20 EVM asset',
      [{ asset: 'eip155:31337/erc721:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', destination: `${C}:${WALLET}` }],
      '/settlements/0/asset',
    ],
    // The chain's own coin is slip44:60 (ETH's coin type) on every EVM chain; another coin type is no asset there.
    ['a native coin of another coin type', [{ asset: 'eip155:31337/slip44:61', destination: `${C}:${WALLET}` }], '/settlements/0/asset'],
    [
      'a chain reference with a leading zero',
      [{ asset: 'eip155:031337/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', destination: `${C}:${WALLET}` }],
      '/settlements/0/asset',
    ],
    [
      'a good entry followed by a bad one',
      [
        { asset: USDC, destination: `${C}:${WALLET}` },
        { asset: USDC2, destination: `${C2}:nope` },
      ],
      '/settlements/1/destination',
    ],
    ['no entries', [], '/settlements'],
    ['51 entries', Array.from({ length: 51 }, () => ({ asset: USDC, destination: `${C}:${WALLET}` })), '/settlements'],
  ])('refuses %s with 400 and stores nothing', async (_w, entries, field) => {
    const mid = await newMerchant();
    const r = await post(mid, entries, uniqueKey(), direct);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('params_validation');
    expect(r.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(await stored(mid)).toEqual([]);
  });

  it('an asset already registered -> 409 settlement_asset_conflict, and nothing from that request is stored', async () => {
    const mid = await newMerchant();
    expect((await post(mid, [{ asset: USDC, destination: `${C}:${WALLET}` }])).status).toBe(201);
    const r = await post(mid, [
      { asset: USDC2, destination: `${C2}:${WALLET}` },
      { asset: USDC, destination: `${C}:${WALLET2}` },
    ]);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('settlement_asset_conflict');
    expect((await stored(mid)).map((s: { asset: string }) => s.asset)).toEqual([USDC]);
    const twice = await post(mid, [
      { asset: EURC, destination: `${C}:${WALLET}` },
      { asset: EURC, destination: `${C}:${WALLET2}` },
    ]);
    expect(twice.status).toBe(409);
    expect(await stored(mid)).toHaveLength(1);
  });

  it('requires an Idempotency-Key and replays on retry', async () => {
    const mid = await newMerchant();
    const noKey = await direct('POST', `/v1/merchants/${mid}/settlements/crypto`, {
      body: { settlements: [{ asset: USDC, destination: `${C}:${WALLET}` }] },
    });
    expect(noKey.body.code).toBe('missing_idempotency_key');
    const key = uniqueKey();
    const a = await post(mid, [{ asset: USDC, destination: `${C}:${WALLET}` }], key);
    const b = await post(mid, [{ asset: USDC, destination: `${C}:${WALLET}` }], key);
    expect(b.text).toBe(a.text);
    expect(await stored(mid)).toHaveLength(1);
  });

  it('another account gets 403; an unknown merchant 404', async () => {
    const mid = await newMerchant();
    const r = await post(mid, [{ asset: USDC, destination: `${C}:${WALLET}` }], uniqueKey(), other);
    expect(r.status).toBe(403);
    const unknown = await post('mrch_nope', [{ asset: USDC, destination: `${C}:${WALLET}` }]);
    expect([unknown.status, unknown.body.code, unknown.body.reason]).toEqual([404, 'not_found', 'merchant_not_found']);
    expect(await stored(mid)).toEqual([]);
  });
});

describe('PUT and DELETE /v1/merchants/{id}/settlements/crypto/{id}', () => {
  it('changes the destination on the same chain only, and removes entries', async () => {
    const mid = await newMerchant();
    const [s] = (await post(mid, [{ asset: USDC, destination: `${C}:${WALLET}` }])).body.settlements;
    const moved = await api('PUT', `/v1/merchants/${mid}/settlements/crypto/${s.id}`, { body: { destination: `${C}:${WALLET2}` } });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ id: s.id, asset: USDC, destination: `${C}:0xde709f2102306220921060314715629080e2fb77` });
    const wrongChain = await api('PUT', `/v1/merchants/${mid}/settlements/crypto/${s.id}`, { body: { destination: `${C2}:${WALLET}` } });
    expect(wrongChain.status).toBe(400);
    expect(wrongChain.body.issues[0].field).toBe('/destination');
    expect((await stored(mid))[0].destination).toBe(`${C}:0xde709f2102306220921060314715629080e2fb77`);
    expect(
      (await other('PUT', `/v1/merchants/${mid}/settlements/crypto/${s.id}`, { body: { destination: `${C}:${WALLET}` } })).status,
    ).toBe(403);

    expect((await other('DELETE', `/v1/merchants/${mid}/settlements/crypto/${s.id}`)).status).toBe(403);
    const del = await api('DELETE', `/v1/merchants/${mid}/settlements/crypto/${s.id}`);
    expect(del.body).toEqual({ id: s.id, deleted: true });
    expect(await stored(mid)).toEqual([]);
    const again = await api('DELETE', `/v1/merchants/${mid}/settlements/crypto/${s.id}`);
    expect([again.status, again.body.code, again.body.reason]).toEqual([404, 'not_found', 'settlement_not_found']);
  });
  it('a settlement id with a NUL (schema-valid) is an unknown settlement: 404, not 400', async () => {
    const mid = await newMerchant();
    const put = await api('PUT', `/v1/merchants/${mid}/settlements/crypto/crypto_%00`, { body: { destination: `${C}:${WALLET}` } });
    expect([put.status, put.body.code, put.body.reason]).toEqual([404, 'not_found', 'settlement_not_found']);
    const del = await api('DELETE', `/v1/merchants/${mid}/settlements/crypto/%00`);
    expect([del.status, del.body.code, del.body.reason]).toEqual([404, 'not_found', 'settlement_not_found']);
  });
});

describe('operators add assets without code changes', () => {
  it('admin assets add registers an asset that settlements can use at once', async () => {
    const { admin } = await import('../support/service');
    // Base's DAI address, on the development chain (a chain this instance serves): no token answers there.
    const asset = 'eip155:31337/erc20:0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb';
    const added = await admin(
      'assets',
      'add',
      '--asset',
      asset.toLowerCase().replace('erc20:0x50c5725949a6f0c72e6c4a641f24049a917db0cb', 'erc20:0x50c5725949a6f0c72e6c4a641f24049a917db0cb'),
      '--symbol',
      'DAI',
      '--name',
      'Dai Stablecoin',
      '--decimals',
      '18',
      '--network-name',
      'paygate devnet',
      '--peg',
      'USD',
    );
    expect(added).toMatchObject({ id: asset, symbol: 'DAI', decimals: 18, pegCurrency: 'USD' });
    const mid = await newMerchant();
    expect((await post(mid, [{ asset, destination: `${C}:${WALLET}` }])).status).toBe(201);
    await expect(
      admin('assets', 'add', '--asset', 'nope', '--symbol', 'X', '--name', 'X', '--decimals', '6', '--network-name', 'X'),
    ).rejects.toMatchObject({ code: 2 });
  });
});
