import { devnetAssetId } from '../../src/chain/devnet';
import { DEVNET_USDC, newWallet } from '../support/chain';
import { uniqueKey } from '../support/fixtures';
import { startRpcProxy } from '../support/rpcProxy';
import { client, newAccount, startTestService, TestService } from '../support/service';

// Settlements that can never work are refused when created and when their destination changes (docs/api.md,
// "Settlements"), on both versions: 422 with a code per reason and the refused entries in `issues`, nothing stored.
// And a merchant whose settlements are all on chains this instance does not serve cannot take payments.

const VERSIONS = ['2026-02-18', '2026-02-19.preview'];
const C = 'eip155:31337';
const USDT = devnetAssetId('USDT');

describe('when the chain node cannot be asked (an RPC proxy refusing eth_call)', () => {
  let rpc: Awaited<ReturnType<typeof startRpcProxy>>;
  let own: TestService;
  beforeAll(async () => {
    rpc = await startRpcProxy(process.env.DEVNET_RPC_URL!);
    own = await startTestService({ DEVNET_RPC_URL: rpc.url });
  }, 120_000);
  afterAll(async () => {
    await own?.close();
    await rpc?.close();
  });

  it.each(VERSIONS)(
    'the blacklist is not read: 503 service_unavailable with Retry-After, nothing stored or changed (%s)',
    async (version) => {
      const c = client(own.url, { 'Api-Key': (await newAccount('Node down')).apiKey, 'PAY-Version': version });
      const mid = (
        await c('POST', '/v1/merchants', {
          body: { merchantName: 'Down', merchantEmail: 'd@x.io' },
          headers: { 'Idempotency-Key': uniqueKey() },
        })
      ).body.merchant.id;
      const before = `${C}:${newWallet()}`;
      const created = await c('POST', `/v1/merchants/${mid}/settlements/crypto`, {
        body: { settlements: [{ asset: DEVNET_USDC, destination: before }] },
        headers: { 'Idempotency-Key': uniqueKey() },
      });
      expect(created.status).toBe(201);
      rpc.refuse('eth_call');
      try {
        const other = await c('POST', `/v1/merchants/${mid}/settlements/crypto`, {
          body: { settlements: [{ asset: USDT, destination: `${C}:${newWallet()}` }] },
          headers: { 'Idempotency-Key': uniqueKey() },
        });
        expect([other.status, other.body.code, other.headers.get('retry-after')]).toEqual([503, 'service_unavailable', '2']);
        const moved = await c('PUT', `/v1/merchants/${mid}/settlements/crypto/${created.body.settlements[0].id}`, {
          body: { destination: `${C}:${newWallet()}` },
        });
        expect([moved.status, moved.body.code]).toEqual([503, 'service_unavailable']);
        expect((await own.db('crypto_settlements').where({ merchant_id: mid })).map((r) => [r.asset, r.destination])).toEqual([
          [DEVNET_USDC, before],
        ]);
      } finally {
        rpc.up();
      }
    },
  );
});
