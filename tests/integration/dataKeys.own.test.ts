import type { Knex } from 'knex';
import { createCipheriv, randomBytes } from 'node:crypto';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { verifyWebhook } from '../../clients/typescript/src/webhooks';
import { createDb } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';
import { DataKeyring, derivedKeyId, seal, sealedHeader, unseal } from '../../src/domain/sealed';
import { DEVNET_USDC, newWallet } from '../support/chain';
import { uniqueKey } from '../support/fixtures';
import { freshDatabase } from '../support/freshDb';
import { adminWith, client, newAccount, newKey, startTestService, TestService } from '../support/service';
import { Receiver, startReceiver } from '../support/webhookReceiver';

// Data key rotation end to end, on a database of its own (the rotation touches every row): values name
// the key that sealed them; rows sealed before key ids existed still open; a new key put first in
// DATA_ENCRYPTION_KEYS seals while the old one still opens (webhook deliveries keep signing); `admin keys
// rotate-data` (the built command) re-seals everything with the newest key, in batches, and a second run
// does nothing; then the old key can be dropped and nothing breaks.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
const KEY_A = randomBytes(32);
const KEY_B = randomBytes(32);
const hex = (k: Buffer) => k.toString('hex');
const DATA = { fullName: 'Ada Lovelace', dob: '1815-12-10', porCountry: 'GB', porAddress: '12 St James Sq, London', tosConfirmed: true };

/** The layout of the previous release (IV | tag | ciphertext, no key id), as existing rows have it. */
function legacySeal(key: Buffer, text: string): Buffer {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(text, 'utf8'), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), body]);
}

/** The layout of the release before values were bound to their place: the header alone is authenticated. */
function unboundSeal(id: string, key: Buffer, text: string): Buffer {
  const header = Buffer.concat([Buffer.from([0xff, 0x70, 0x67, 0x02, id.length]), Buffer.from(id)]);
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(header);
  const body = Buffer.concat([c.update(text, 'utf8'), c.final()]);
  return Buffer.concat([header, iv, c.getAuthTag(), body]);
}

/** The version byte of a value's header (3: bound to its place; 2: not), or null for a legacy value without one. */
const layoutOf = (b: Buffer) => (b[0] === 0xff && b[1] === 0x70 && b[2] === 0x67 && (b[3] === 0x02 || b[3] === 0x03) ? b[3] : null);

/** Every sealed value in the database, with the key id its header names (null: none, legacy). */
async function sealedValues(db: Knex): Promise<{ where: string; header: string | null; layout: number | null }[]> {
  const out: { where: string; header: string | null; layout: number | null }[] = [];
  const idOf = (b: Buffer) => (layoutOf(b) === null ? null : b.subarray(5, 5 + b[4]).toString());
  for (const [table, column] of [
    ['payments', 'collected_data'],
    ['payment_options', 'collected_data'],
    ['webhook_endpoints', 'secret'],
    ['webhook_endpoints', 'previous_secret'],
    ['x402_deposit_keys', 'private_key'],
  ]) {
    for (const r of await db(table).whereNotNull(column).select(column))
      out.push({ where: `${table}.${column}`, header: idOf(r[column]), layout: layoutOf(r[column]) });
  }
  for (const r of await db('idempotency_keys').where('response_body', 'like', 'sealed:%').select('response_body')) {
    const sealed = Buffer.from(r.response_body.slice(7), 'base64');
    out.push({ where: 'idempotency_keys.response_body', header: idOf(sealed), layout: layoutOf(sealed) });
  }
  return out;
}

describe('data encryption keys', () => {
  let fresh: { url: string; drop(): Promise<void> };
  let svc: TestService | undefined;
  let rx: Receiver;
  let apiKey: string;
  let walletKey: string;
  let merchantId: string;
  let accountId: string;
  let depositAddress: string;
  const secrets = new Map<string, string>(); // endpoint id -> its signing secret
  let firstCreate: { key: string; body: unknown; response: any };

  const start = async (env: Record<string, string>) => {
    await svc?.close();
    svc = await startTestService({ DATABASE_URL: fresh.url, ...env });
    return svc;
  };
  const api = (headers: Record<string, string> = {}) => client(svc!.directUrl, { 'Api-Key': apiKey, ...headers });
  const newEndpoint = async (key = uniqueKey()) => {
    const body = { url: rx.url, enabledEvents: ['payment.created'] };
    const r = await api(PREVIEW)('POST', '/v1/webhook-endpoints', { body, headers: { 'Idempotency-Key': key } });
    expect(r.status).toBe(201);
    secrets.set(r.body.endpoint.id, r.body.secret);
    return { key, body, response: r.body };
  };
  /** A payment's payment.created reaches every endpoint, each signed with that endpoint's own secret. */
  const deliveredToAll = async () => {
    const r = await api({ 'Merchant-Id': merchantId })('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '150000' } },
    });
    expect(r.status).toBe(201);
    const mine = (all: typeof rx.received) => all.filter((x) => x.body?.data?.payment?.paymentId === r.body.paymentId);
    await rx.until((all) => mine(all).length >= secrets.size);
    const byEndpoint = await svc!
      .db('webhook_deliveries as d')
      .join('payment_events as e', 'e.id', 'd.event_id')
      .where('e.payment_id', r.body.paymentId)
      .select('d.endpoint_id');
    expect(byEndpoint.map((d) => d.endpoint_id).sort()).toEqual([...secrets.keys()].sort());
    // Each arrival verifies with exactly one of the secrets, and every secret signed one.
    const verifiedBy = mine(rx.received).map((x) =>
      [...secrets.values()].filter((s) => {
        try {
          return verifyWebhook(x.raw, x.headers, s).type === 'payment.created';
        } catch {
          return false;
        }
      }),
    );
    expect(verifiedBy.every((v) => v.length === 1)).toBe(true);
    expect(new Set(verifiedBy.flat()).size).toBe(secrets.size);
    return r.body.paymentId as string;
  };

  beforeAll(async () => {
    fresh = await freshDatabase('paygate_datakeys');
    const migrator = createDb(fresh.url, 2);
    await migrateLatest(migrator);
    await migrator.destroy();
    rx = await startReceiver();
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    await rx?.close();
    await fresh?.drop();
  });

  it('DATA_ENCRYPTION_KEY: values name its derived id; rows sealed before key ids still open', async () => {
    await start({ DATA_ENCRYPTION_KEY: hex(KEY_A) });
    const acct = await newAccount('Keys', fresh.url);
    apiKey = acct.apiKey;
    accountId = acct.accountId;
    walletKey = (await newKey(acct.accountId, 'wallet', fresh.url)).apiKey;
    const m = await api()('POST', '/v1/merchants', {
      body: { merchantName: 'Sealed', merchantEmail: 's@x.io' },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    merchantId = m.body.merchant.id;
    const s = await api()('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
      body: { settlements: [{ asset: DEVNET_USDC, destination: `eip155:31337:${newWallet()}` }] },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    expect(s.status).toBe(201);
    // The account's x402 deposit address: its key is made now, sealed.
    depositAddress = (await api(PREVIEW)('GET', '/v1/account/settings')).body.settings.x402.payTo;
    expect(depositAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);

    firstCreate = await newEndpoint();
    const legacy = await newEndpoint();
    // As the previous release stored it: no key id.
    await svc!
      .db('webhook_endpoints')
      .where({ id: legacy.response.endpoint.id })
      .update({ secret: legacySeal(KEY_A, legacy.response.secret) });

    // Buyer data sent early through fetch (USD 1,500.00 is above the default threshold) is sealed too.
    const paymentId = await deliveredToAll();
    const gw = client(svc!.directUrl, { 'Api-Key': walletKey });
    const o = await gw('POST', `/v1/gateway/payment/${paymentId}/options`, { body: { accounts: [`eip155:31337:${newWallet()}`] } });
    expect(o.status).toBe(200);
    const f = await gw('POST', `/v1/gateway/payment/${paymentId}/fetch`, { body: { optionId: o.body.options[0].id, data: DATA } });
    expect(f.status).toBe(200);
    const option = () => svc!.db('payment_options').where({ id: o.body.options[0].id }).first();
    const optionPlace = { table: 'payment_options', column: 'collected_data', row: [o.body.options[0].id] };
    expect(unseal(KEY_A, (await option()).collected_data, optionPlace)).toBe(JSON.stringify(DATA));
    await svc!
      .db('payment_options')
      .where({ id: o.body.options[0].id })
      .update({ collected_data: legacySeal(KEY_A, JSON.stringify(DATA)) });

    const idA = derivedKeyId(KEY_A);
    expect(idA).toMatch(/^k[0-9a-f]{12}$/);
    expect((await sealedValues(svc!.db)).sort((a, b) => a.where.localeCompare(b.where))).toEqual([
      { where: 'idempotency_keys.response_body', header: idA, layout: 3 },
      { where: 'idempotency_keys.response_body', header: idA, layout: 3 },
      { where: 'payment_options.collected_data', header: null, layout: null },
      { where: 'webhook_endpoints.secret', header: idA, layout: 3 },
      { where: 'webhook_endpoints.secret', header: null, layout: null },
      { where: 'x402_deposit_keys.private_key', header: idA, layout: 3 },
    ]);
    // The legacy secret still signs.
    await deliveredToAll();
  }, 60_000);

  it('DATA_ENCRYPTION_KEYS with a new key first: it seals, the old one still opens (deliveries, replays, legacy rows)', async () => {
    await start({ DATA_ENCRYPTION_KEYS: `new:${hex(KEY_B)},old:${KEY_A.toString('base64')}` });
    const unbound = await newEndpoint();
    // As the release before values were bound to their place stored it: under the new key, but not bound.
    await svc!
      .db('webhook_endpoints')
      .where({ id: unbound.response.endpoint.id })
      .update({ secret: unboundSeal('new', KEY_B, unbound.response.secret) });
    await deliveredToAll();
    // The stored response of the first creation (sealed under the old key) replays byte for byte.
    const replay = await api(PREVIEW)('POST', '/v1/webhook-endpoints', {
      body: firstCreate.body,
      headers: { 'Idempotency-Key': firstCreate.key },
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(firstCreate.response);
    const headers = (await sealedValues(svc!.db)).map((v) => v.header);
    expect(headers.filter((h) => h === 'new')).toHaveLength(2); // the new endpoint's secret and its stored response
  }, 60_000);

  it('admin keys rotate-data re-seals every value with the newest key, in batches; a second run does nothing', async () => {
    const env = { DATABASE_URL: fresh.url, DATA_ENCRYPTION_KEYS: `new:${hex(KEY_B)},old:${hex(KEY_A)}` };
    const first = await adminWith(env, 'keys', 'rotate-data', '--batch-size', '1');
    expect(first.code).toBe(0);
    const zero = { resealed: 0, unreadable: 0, changedMeanwhile: 0 };
    expect(first.out).toEqual({
      keyId: 'new',
      batchSize: 1,
      resealed: 7,
      unreadable: 0,
      columns: {
        'payments.collected_data': zero,
        'payment_options.collected_data': { ...zero, resealed: 1 },
        // Under an older key, under no key id, and under the newest key but not bound to its row.
        'webhook_endpoints.secret': { ...zero, resealed: 3 },
        'webhook_endpoints.previous_secret': zero,
        'idempotency_keys.response_body': { ...zero, resealed: 2 },
        'x402_deposit_keys.private_key': { ...zero, resealed: 1 },
        'dashboard_invites.totp_secret': zero,
        'dashboard_users.totp_secret': zero,
      },
    });
    const values = await sealedValues(svc!.db);
    expect(values).toHaveLength(8);
    expect(values.every((v) => v.header === 'new' && v.layout === 3)).toBe(true);
    const ring = new DataKeyring([{ id: 'new', key: KEY_B }]);
    const opt = await svc!.db('payment_options').whereNotNull('collected_data').first('id', 'collected_data');
    const place = { table: 'payment_options', column: 'collected_data', row: [opt.id] };
    expect(JSON.parse(unseal(ring, opt.collected_data, place))).toEqual(DATA);
    const deposit = await svc!.db('x402_deposit_keys').where({ scope: accountId }).first();
    const depositPlace = { table: 'x402_deposit_keys', column: 'private_key', row: [accountId] };
    expect(privateKeyToAccount(unseal(ring, deposit.private_key, depositPlace) as Hex).address).toBe(depositAddress);

    const again = await adminWith(env, 'keys', 'rotate-data');
    expect(again.code).toBe(0);
    expect(again.out).toMatchObject({ keyId: 'new', batchSize: 500, resealed: 0, unreadable: 0 });
    expect(Object.values(again.out.columns)).toEqual(Array(8).fill(zero));
  }, 60_000);

  it('after the rotation the old key can go: deliveries and replays work with the new key alone', async () => {
    await start({ DATA_ENCRYPTION_KEYS: `new:${hex(KEY_B)}` });
    await deliveredToAll();
    const replay = await api(PREVIEW)('POST', '/v1/webhook-endpoints', {
      body: firstCreate.body,
      headers: { 'Idempotency-Key': firstCreate.key },
    });
    expect({ status: replay.status, body: replay.body }).toEqual({ status: 201, body: firstCreate.response });
    expect((await api(PREVIEW)('GET', '/v1/account/settings')).body.settings.x402.payTo).toBe(depositAddress);
    await svc!.close();
    svc = undefined;
  }, 60_000);

  it('a value no key of the keyring opens is counted, left as it is, and the command exits 1', async () => {
    const db = createDb(fresh.url, 2);
    try {
      const [ep] = await db('webhook_endpoints').select('*').limit(1);
      const lost = seal(new DataKeyring([{ id: 'lost', key: randomBytes(32) }]), 'whsec_unknowable', {
        table: 'webhook_endpoints',
        column: 'secret',
        row: ['we_lostkeyrow'],
      });
      await db('webhook_endpoints').insert({ ...ep, id: 'we_lostkeyrow', status: 'disabled', secret: lost });
      const r = await adminWith({ DATABASE_URL: fresh.url, DATA_ENCRYPTION_KEYS: `new:${hex(KEY_B)}` }, 'keys', 'rotate-data');
      expect(r.code).toBe(1);
      expect(r.out).toMatchObject({
        keyId: 'new',
        resealed: 0,
        unreadable: 1,
        columns: { 'webhook_endpoints.secret': { resealed: 0, unreadable: 1, changedMeanwhile: 0 } },
      });
      expect(JSON.parse(r.stderr).error).toContain('1 sealed values open with no key');
      expect((await db('webhook_endpoints').where({ id: 'we_lostkeyrow' }).first()).secret).toEqual(lost);
      expect(sealedHeader('lost').equals(lost.subarray(0, 9))).toBe(true);
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
