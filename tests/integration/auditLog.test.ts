import { DEVNET_USDC, newWallet } from '../support/chain';
import { uniqueKey } from '../support/fixtures';
import { client, newAccount, startTestService, type TestService } from '../support/service';
import { startReceiver, type Receiver } from '../support/webhookReceiver';

// The account's audit log of changes (preview GET /v1/audit-events, docs/keys.md): each successful request of an
// audited operation writes one event, naming the key and the object changed; a replay under the same
// Idempotency-Key writes none, nor does a refused request; another account's log shows none of it.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
let svc: TestService;
let rx: Receiver;

beforeAll(async () => {
  svc = await startTestService();
  rx = await startReceiver();
}, 60_000);
afterAll(async () => {
  await rx?.close();
  await svc.close();
});

it('merchants, settlements and webhook endpoints changed through the API are in the log once each', async () => {
  const a = await newAccount('Audited');
  const call = client(svc.url, { 'Api-Key': a.apiKey, ...PREVIEW });
  const log = async () =>
    ((await call('GET', '/v1/audit-events')).body.data as { action: string; actor: unknown; target: string }[]).map((e) => [
      e.action,
      e.target,
    ]);
  const idem = uniqueKey();
  const create = () =>
    call('POST', '/v1/merchants', { body: { merchantName: 'Shop', merchantEmail: 'm@x.io' }, headers: { 'Idempotency-Key': idem } });
  const created = await create();
  expect(created.status).toBe(201);
  const merchantId: string = created.body.merchant.id;
  expect((await create()).body.merchant.id).toBe(merchantId); // the stored answer again: no second event
  const renamed = await call('PATCH', `/v1/merchants/${merchantId}`, { body: { merchantName: 'Shop two' } });
  expect(renamed.status).toBe(200);
  const settled = await call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
    body: { settlements: [{ asset: DEVNET_USDC, destination: `eip155:31337:${newWallet()}` }] },
    headers: { 'Idempotency-Key': uniqueKey() },
  });
  expect(settled.status).toBe(201);
  const hook = await call('POST', '/v1/webhook-endpoints', {
    body: { url: rx.url, enabledEvents: ['payment.succeeded'] },
    headers: { 'Idempotency-Key': uniqueKey() },
  });
  expect(hook.status).toBe(201);
  const endpointId: string = hook.body.endpoint.id;
  expect(
    (await call('POST', `/v1/webhook-endpoints/${endpointId}/rotate-secret`, { headers: { 'Idempotency-Key': uniqueKey() } })).status,
  ).toBe(200);
  // Refused: nothing changed, nothing logged.
  const unknown = await call('PATCH', '/v1/merchants/mrch_0000000000000000000000', {
    body: { merchantName: 'Nobody' },
  });
  expect(unknown.status).toBe(404);

  expect(await log()).toEqual([
    ['webhook_endpoint.secret_rotated', endpointId],
    ['webhook_endpoint.created', endpointId],
    ['settlement.created', merchantId],
    ['merchant.updated', merchantId],
    ['merchant.created', merchantId],
  ]);
  const events = (await call('GET', '/v1/audit-events')).body.data as { actor: unknown }[];
  expect(new Set(events.map((e) => JSON.stringify(e.actor)))).toEqual(new Set([JSON.stringify({ type: 'api_key', id: a.keyId })]));

  const other = await newAccount('Elsewhere');
  expect((await client(svc.url, { 'Api-Key': other.apiKey, ...PREVIEW })('GET', '/v1/audit-events')).body.data).toEqual([]);
});
