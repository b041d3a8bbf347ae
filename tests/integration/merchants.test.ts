import { client, newAccount, startTestService, TestService } from '../support/service';

let svc: TestService;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
// Requests that break the contract on purpose go straight to the service (see tests/support/service.ts).
let direct: ReturnType<typeof client>;
let accountId: string;
let seq = 0;
const ikey = () => `test-${Date.now()}-${++seq}`;

beforeAll(async () => {
  svc = await startTestService();
  const a = await newAccount('Merchants A');
  accountId = a.accountId;
  api = client(svc.url, { 'Api-Key': a.apiKey });
  direct = client(svc.directUrl, { 'Api-Key': a.apiKey });
  other = client(svc.url, { 'Api-Key': (await newAccount('Merchants B')).apiKey });
}, 60_000); // starts a service (and the admin command): slow on a busy machine
afterAll(() => svc.close());

const create = (body: Record<string, unknown>, key = ikey(), c = api) =>
  c('POST', '/v1/merchants', { body, headers: { 'Idempotency-Key': key } });
const createInvalid = (body: Record<string, unknown>, key = ikey()) => create(body, key, direct);
const valid = (name = 'Coffee Shop') => ({ merchantName: name, merchantEmail: 'owner@coffee.example.com' });
const count = async (where: Record<string, unknown> = {}) =>
  Number(
    (
      await svc
        .db('merchants')
        .where({ account_id: accountId, ...where })
        .count<{ c: string }[]>({ c: '*' })
    )[0].c,
  );

describe('POST /v1/merchants', () => {
  it('creates an active merchant: 201 with the seed shape, stored', async () => {
    const r = await create({ ...valid(), iconUrl: 'https://cdn.example.com/logo.png' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      merchant: {
        id: expect.stringMatching(/^mrch_/),
        name: 'Coffee Shop',
        email: 'owner@coffee.example.com',
        status: 'active',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    });
    const row = await svc.db('merchants').where({ id: r.body.merchant.id }).first();
    expect(row).toMatchObject({
      account_id: accountId,
      name: 'Coffee Shop',
      icon_url: 'https://cdn.example.com/logo.png',
      status: 'active',
      deleted_at: null,
    });
  });

  it('requires an Idempotency-Key of at most 255 characters', async () => {
    const r = await direct('POST', '/v1/merchants', { body: valid() });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('missing_idempotency_key');
    const long = await createInvalid(valid(), 'k'.repeat(256));
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('params_validation');
    expect(long.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'Idempotency-Key' })]));
    expect((await create(valid(), 'k'.repeat(255))).status).toBe(201);
  });

  it.each([
    ['missing name', { merchantEmail: 'a@b.co' }, '/merchantName'],
    ['empty name', { merchantName: '', merchantEmail: 'a@b.co' }, '/merchantName'],
    ['name of 257 characters', { merchantName: 'n'.repeat(257), merchantEmail: 'a@b.co' }, '/merchantName'],
    ['missing e-mail', { merchantName: 'x' }, '/merchantEmail'],
    ['e-mail with a leading dot', { merchantName: 'x', merchantEmail: '.a@b.co' }, '/merchantEmail'],
    ['e-mail with consecutive dots', { merchantName: 'x', merchantEmail: 'a..b@b.co' }, '/merchantEmail'],
    ['e-mail with a one-letter top-level label', { merchantName: 'x', merchantEmail: 'a@b.c' }, '/merchantEmail'],
    ['e-mail local part ending in a dot', { merchantName: 'x', merchantEmail: 'a.@b.co' }, '/merchantEmail'],
    // Found by the contract gate (Schemathesis): validators that implement `format: email` with IDNA refuse these.
    ['e-mail with a reserved "ab--" domain label', { merchantName: 'x', merchantEmail: 'a@wf--fs.example.com' }, '/merchantEmail'],
    ['e-mail with an xn-- label that is not Punycode', { merchantName: 'x', merchantEmail: 'a@xn--zz.example.com' }, '/merchantEmail'],
    ['e-mail with a local part over 64 characters', { merchantName: 'x', merchantEmail: `${'a'.repeat(65)}@b.co` }, '/merchantEmail'],
    ['e-mail with a domain label over 63 characters', { merchantName: 'x', merchantEmail: `a@${'b'.repeat(64)}.co` }, '/merchantEmail'],
    // Found by the contract gate: PostgreSQL text cannot hold U+0000, which made this a 500.
    ['name with a NUL character', { merchantName: 'a\u0000b', merchantEmail: 'a@b.co' }, '/merchantName'],
    ['name with a line break', { merchantName: 'a\nb', merchantEmail: 'a@b.co' }, '/merchantName'],
    ['plain-http icon', { ...valid(), iconUrl: 'http://cdn.example.com/a.png' }, '/iconUrl'],
    ['icon that is not a URL', { ...valid(), iconUrl: 'https://' }, '/iconUrl'],
    ['unknown field', { ...valid(), merchantPhone: '1' }, '/merchantPhone'],
    ['name of the wrong type', { merchantName: 42, merchantEmail: 'a@b.co' }, '/merchantName'],
  ])('refuses %s with 400 params_validation and stores nothing', async (_what, body, field) => {
    const before = await count();
    const r = await createInvalid(body);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('params_validation');
    expect(r.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(await count()).toBe(before);
  });

  it('accepts the e-mail forms the seed allows', async () => {
    for (const email of [
      "o'neil+tag@mail.example.org",
      'a_b-c@x-y.io',
      'A1@B2.COM',
      'kontakt@xn--bcher-kva.example',
      `${'a'.repeat(64)}@${'b'.repeat(63)}.co`,
    ]) {
      expect((await create({ merchantName: 'e', merchantEmail: email })).status).toBe(201);
    }
  });

  it('replays the first response byte for byte for the same key and body, creating nothing more', async () => {
    const key = ikey();
    const first = await create(valid('Replay'), key);
    const again = await create(valid('Replay'), key);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await count({ name: 'Replay' })).toBe(1);
  });

  it('treats a reordered but equal body as the same request', async () => {
    const key = ikey();
    const first = await api('POST', '/v1/merchants', {
      raw: '{"merchantName":"Order","merchantEmail":"o@x.io"}',
      headers: { 'Idempotency-Key': key, 'content-type': 'application/json' },
    });
    const again = await api('POST', '/v1/merchants', {
      raw: '{"merchantEmail":"o@x.io","merchantName":"Order"}',
      headers: { 'Idempotency-Key': key, 'content-type': 'application/json' },
    });
    expect(again.text).toBe(first.text);
  });

  it('same key with a different request -> 409 idempotency_conflict (the hosted status)', async () => {
    const key = ikey();
    expect((await create(valid('One'), key)).status).toBe(201);
    const r = await create(valid('Two'), key);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('idempotency_conflict');
    expect(await count({ name: 'Two' })).toBe(0);
  });

  it('scopes keys to the account', async () => {
    const key = ikey();
    const a = await create(valid('Scoped'), key);
    const b = await create(valid('Scoped'), key, other);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.merchant.id).not.toBe(a.body.merchant.id);
  });

  it('records past their retention are purged by the background sweep, live ones kept', async () => {
    const live = ikey();
    expect((await create(valid('Kept record'), live)).status).toBe(201);
    await svc.db('idempotency_keys').insert({
      scope: `account:${accountId}`,
      key: 'stale-record',
      fingerprint: 'x',
      state: 'done',
      response_status: 201,
      response_body: '{}',
      expires_at: new Date(Date.now() - 1000),
    });
    for (let i = 0; i < 40 && (await svc.db('idempotency_keys').where({ key: 'stale-record' }).first()); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await svc.db('idempotency_keys').where({ key: 'stale-record' }).first()).toBeUndefined();
    expect(await svc.db('idempotency_keys').where({ key: live }).first()).toBeDefined();
  });

  it('50 parallel creates with one key make exactly one merchant', async () => {
    const key = ikey();
    const results = await Promise.all(Array.from({ length: 50 }, () => create(valid('Racer'), key)));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const r of results.filter((x) => x.status === 409)) {
      expect([r.body.code, r.body.reason]).toEqual(['idempotency_conflict', 'idempotency_in_progress']);
      expect(r.headers.get('retry-after')).toBe('1');
    }
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.text)).size).toBe(1);
    expect(await count({ name: 'Racer' })).toBe(1);
    const after = await create(valid('Racer'), key);
    expect(after.text).toBe(created[0].text);
  });
});

describe('GET /v1/merchants/{id}', () => {
  it('shows the merchant with iconUrl and its settlements', async () => {
    const id = (await create(valid('Getter'))).body.merchant.id;
    const r = await api('GET', `/v1/merchants/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      merchant: {
        id,
        name: 'Getter',
        email: 'owner@coffee.example.com',
        status: 'active',
        iconUrl: null,
        createdAt: expect.any(String),
        settlements: { crypto: [], fiat: [] },
      },
    });
  });
  it('another account gets 403 forbidden; an unknown id 404 not_found (reason merchant_not_found)', async () => {
    const id = (await create(valid('Private'))).body.merchant.id;
    const r = await other('GET', `/v1/merchants/${id}`);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('forbidden');
    const missing = await api('GET', '/v1/merchants/mrch_doesnotexist');
    expect([missing.status, missing.body.code, missing.body.reason]).toEqual([404, 'not_found', 'merchant_not_found']);
  });
  it('an id with a NUL (schema-valid) is an unknown merchant: 404, not 400 (PostgreSQL text cannot hold NUL)', async () => {
    // The hosted contract's code on merchant operations, ours in reason; the deprecated list (ours) keeps ours.
    const paths: [string, string][] = [
      ['/v1/merchants/mrch_%00x', 'not_found'],
      ['/v1/merchants/%00/settlements', 'not_found'],
      ['/v1/merchants/mrch_%00/payments', 'merchant_not_found'],
    ];
    for (const [path, code] of paths) {
      const r = await api('GET', path);
      expect([path, r.status, r.body.code]).toEqual([path, 404, code]);
    }
    const patched = await api('PATCH', '/v1/merchants/mrch_%00', { body: { merchantName: 'Nobody' } });
    expect([patched.status, patched.body.code, patched.body.reason]).toEqual([404, 'not_found', 'merchant_not_found']);
    const deleted = await api('DELETE', '/v1/merchants/mrch_%00');
    expect([deleted.status, deleted.body.code, deleted.body.reason]).toEqual([404, 'not_found', 'merchant_not_found']);
  });
});

describe('PATCH /v1/merchants/{id}', () => {
  it('updates given fields and unsets the icon with null', async () => {
    const id = (await create({ ...valid('Patchy'), iconUrl: 'https://x.example/i.png' })).body.merchant.id;
    const r = await api('PATCH', `/v1/merchants/${id}`, { body: { merchantName: 'Patched', iconUrl: null } });
    expect(r.status).toBe(200);
    expect(r.body.merchant).toMatchObject({ id, name: 'Patched', email: 'owner@coffee.example.com', iconUrl: null });
    const row = await svc.db('merchants').where({ id }).first();
    expect(row).toMatchObject({ name: 'Patched', icon_url: null });
    const e = await api('PATCH', `/v1/merchants/${id}`, { body: { merchantEmail: 'new@x.io' } });
    expect(e.body.merchant).toMatchObject({ name: 'Patched', email: 'new@x.io' });
  });
  it('needs at least one field and validates each', async () => {
    const id = (await create(valid('Strict'))).body.merchant.id;
    for (const body of [
      {},
      { merchantName: '' },
      { merchantName: 'nul\u0000' },
      { iconUrl: 'http://x.io/a.png' },
      { merchantEmail: null },
    ]) {
      const r = await direct('PATCH', `/v1/merchants/${id}`, { body });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('params_validation');
    }
    expect((await svc.db('merchants').where({ id }).first()).name).toBe('Strict');
  });
  it('another account gets 403 and changes nothing', async () => {
    const id = (await create(valid('Mine'))).body.merchant.id;
    const r = await other('PATCH', `/v1/merchants/${id}`, { body: { merchantName: 'Stolen' } });
    expect(r.status).toBe(403);
    expect((await svc.db('merchants').where({ id }).first()).name).toBe('Mine');
  });
});

describe('DELETE /v1/merchants/{id}', () => {
  it('soft-deletes idempotently and hides the merchant', async () => {
    const id = (await create(valid('Doomed'))).body.merchant.id;
    const r = await api('DELETE', `/v1/merchants/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id, deleted: true });
    expect((await api('DELETE', `/v1/merchants/${id}`)).body).toEqual({ id, deleted: true });
    expect((await svc.db('merchants').where({ id }).first()).deleted_at).not.toBeNull();
    expect((await api('GET', `/v1/merchants/${id}`)).status).toBe(404);
    expect((await api('PATCH', `/v1/merchants/${id}`, { body: { merchantName: 'Back' } })).status).toBe(404);
    const list = await api('GET', `/v1/merchants?search=${id}`);
    expect(list.body.merchants).toEqual([]);
    expect(list.body.totalCount).toBe(0);
  });
  it('another account gets 403 and the merchant stays', async () => {
    const id = (await create(valid('Kept'))).body.merchant.id;
    expect((await other('DELETE', `/v1/merchants/${id}`)).status).toBe(403);
    expect((await svc.db('merchants').where({ id }).first()).deleted_at).toBeNull();
  });
});

describe('GET /v1/merchants', () => {
  let lister: ReturnType<typeof client>;
  let listerDirect: ReturnType<typeof client>;
  const ids: string[] = [];
  beforeAll(async () => {
    const listerKey = (await newAccount('Lister')).apiKey;
    lister = client(svc.url, { 'Api-Key': listerKey });
    listerDirect = client(svc.directUrl, { 'Api-Key': listerKey });
    for (let i = 0; i < 25; i++) {
      const r = await lister('POST', '/v1/merchants', {
        body: { merchantName: `Shop ${i % 2 ? 'Odd' : 'Even'} ${i}`, merchantEmail: `s${i}@x.io` },
        headers: { 'Idempotency-Key': `l${i}` },
      });
      ids.push(r.body.merchant.id);
    }
  });

  it('pages newest first with a default of 20, totalCount and nextCursor', async () => {
    const r = await lister('GET', '/v1/merchants');
    expect(r.status).toBe(200);
    expect(r.body.merchants).toHaveLength(20);
    expect(r.body.totalCount).toBe(25);
    expect(r.body.merchants[0].id).toBe(ids[24]);
    expect(r.body.merchants[0]).toHaveProperty('iconUrl', null);
    const next = await lister('GET', `/v1/merchants?cursor=${r.body.nextCursor}`);
    expect(next.body.merchants.map((m: { id: string }) => m.id)).toEqual(ids.slice(0, 5).reverse());
    expect(next.body.nextCursor).toBeNull();
  });

  it('keeps its cursor stable while merchants are inserted', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let n = 0;
    do {
      const r: { body: { merchants: { id: string }[]; nextCursor: string | null } } = await lister(
        'GET',
        `/v1/merchants?limit=7${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...r.body.merchants.map((m) => m.id));
      cursor = r.body.nextCursor;
      await lister('POST', '/v1/merchants', {
        body: { merchantName: `Late ${n}`, merchantEmail: 'l@x.io' },
        headers: { 'Idempotency-Key': `late-${n++}` },
      });
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('filters by exact status and searches name or id case-insensitively', async () => {
    const odd = await lister('GET', '/v1/merchants?search=sHoP%20oDd&limit=100');
    expect(odd.body.totalCount).toBe(12);
    expect(odd.body.merchants.every((m: { name: string }) => m.name.includes('Odd'))).toBe(true);
    const byId = await lister('GET', `/v1/merchants?search=${ids[3].toLowerCase()}`);
    expect(byId.body.merchants.map((m: { id: string }) => m.id)).toEqual([ids[3]]);
    expect((await lister('GET', '/v1/merchants?status=suspended')).body).toEqual({ merchants: [], totalCount: 0, nextCursor: null });
    const active = await lister('GET', '/v1/merchants?status=active&limit=1');
    expect(active.body.totalCount).toBeGreaterThanOrEqual(25);
    const wild = await lister('GET', '/v1/merchants?search=%25');
    expect(wild.body.totalCount).toBe(0);
  });

  it("never shows another account's merchants", async () => {
    const r = await lister('GET', '/v1/merchants?search=Coffee');
    expect(r.body.totalCount).toBe(0);
  });

  it.each([
    ['limit=0'],
    ['limit=101'],
    ['search=a%00b'],
    ['limit=abc'],
    ['status=closed'],
    ['search='],
    [`search=${'s'.repeat(257)}`],
    ['cursor=garbage!'],
    [`cursor=${Buffer.from('{"t":"x","i":1}').toString('base64url')}`],
    [`cursor=${Buffer.from('{"t":"12","i":"mrch_x"}').toString('base64url')}`],
    [`cursor=${Buffer.from('{"t":"+275760-09-13T00:00:00.000Z","i":"x"}').toString('base64url')}`],
  ])('refuses %s with 400 params_validation', async (qs) => {
    const r = await listerDirect('GET', `/v1/merchants?${qs}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('params_validation');
  });
});
