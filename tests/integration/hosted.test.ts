import type { PrivateKeyAccount } from 'viem/accounts';
import { admin, client, newKey, startTestService, TestService } from '../support/service';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { newBuyer } from '../support/chain';
import { eventually } from '../support/eventually';
import { loadConfig } from '../../src/config';
import { unseal } from '../../src/domain/sealed';

// The non-API routes over HTTP: the rendered docs and the hosted buyer pages (their browser behaviour is
// in tests/browser). They are not operations of the API's versions, so they go to the service directly
// (svc.directUrl); the pages' JSON routes are operations of spec/internal/hosted.yaml, validated as the API's are.

const DATA = { fullName: 'Ada Lovelace', dob: '1815-12-10', porCountry: 'GB', porAddress: '12 St James Sq, London', tosConfirmed: true };

let svc: TestService;
let web: ReturnType<typeof client>;
let m: Awaited<ReturnType<typeof merchantWithSettlement>>;
let gw: ReturnType<typeof client>;
let gwDirect: ReturnType<typeof client>; // straight to the service: for requests that break the contract on purpose
let buyer: PrivateKeyAccount; // funded on the development chain: confirm simulates the transfer
let BUYER_BASE: string;

beforeAll(async () => {
  svc = await startTestService();
  buyer = await newBuyer(1_000_000_000n);
  BUYER_BASE = `eip155:31337:${buyer.address}`;
  web = client(svc.directUrl);
  m = await merchantWithSettlement(svc, 'Hosted <script>alert(1)</script> & Co');
  const wallet = { 'Api-Key': (await newKey(m.accountId, 'wallet')).apiKey };
  gw = client(svc.url, wallet);
  gwDirect = client(svc.directUrl, wallet);
}, 60_000); // starts a service (and the admin command): slow on a busy machine
afterAll(() => svc.close());

const newPayment = async (value = '1234') => {
  const r = await m.asMerchant('POST', '/v1/payments', {
    body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value } },
  });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.paymentId as string;
};

describe('/docs', () => {
  it('/docs redirects to the stable version', async () => {
    const r = await fetch(`${svc.directUrl}/docs`, { redirect: 'manual' });
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe('/docs/2026-02-18');
  });

  it.each(['2026-02-18', '2026-02-19.preview'])('/docs/%s is the rendered reference, self-contained, under a hash-based CSP', async (v) => {
    const r = await web('GET', `/docs/${v}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.text).toContain(`paygate API ${v}`);
    expect(r.text).not.toMatch(/<(script|link)[^>]+(src|href)="https?:/);
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain("script-src 'unsafe-inline'");
  });

  it('an unknown version is 404 not_found, another method 405', async () => {
    expect((await web('GET', '/docs/2020-01-01')).body).toMatchObject({ code: 'not_found' });
    const post = await web('POST', '/docs/2026-02-18');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('the gatewayUrl page', () => {
  it('shows the merchant (escaped) and the amount, under a strict CSP', async () => {
    const id = await newPayment('123456');
    const r = await web('GET', `/?pid=${id}`);
    expect(r.status).toBe(200);
    expect(r.text).toContain('Hosted &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
    expect(r.text).not.toContain('<script>alert(1)');
    expect(r.text).toContain('$1,234.56');
    expect(r.text).toContain('<svg');
    expect(r.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(r.text).not.toMatch(/<script>/); // no inline script at all
  });

  it.each([
    ['unknown', '?pid=pay_doesnotexist'],
    ['malformed', '?pid=%3Cscript%3E'],
    ['missing', ''],
    ['foreign link', '?pid=https%3A%2F%2Fevil.example%2F%3Fpid%3Dpay_x'],
  ])('a %s pid is a friendly 404 page', async (_name, q) => {
    const r = await web('GET', `/${q}`);
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toContain('text/html');
    expect(r.text).toContain('Payment not found');
    expect(r.text).not.toContain('<script>');
  });

  it('/pay/<id>/status long-polls: a cancel through the API wakes it', async () => {
    const id = await newPayment();
    const now = await web('GET', `/pay/${id}/status`);
    expect(now.body).toEqual({
      status: 'requires_action',
      isFinal: false,
      pollInMs: 1000,
      statusText: 'Waiting for payment',
      redirectUrl: null,
    });
    const started = Date.now();
    const waiting = web('GET', `/pay/${id}/status?maxPollMs=10000`);
    await new Promise((r) => setTimeout(r, 200));
    expect((await m.asMerchant('POST', `/v1/payments/${id}/cancel`)).status).toBe(200);
    expect((await waiting).body).toMatchObject({ status: 'cancelled', isFinal: true, pollInMs: null });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('/pay/<id>/status: unknown is 404 payment_not_found, a bad maxPollMs 400', async () => {
    expect((await web('GET', '/pay/pay_nope/status')).body.code).toBe('payment_not_found');
    const bad = await web('GET', `/pay/${await newPayment()}/status?maxPollMs=-1`);
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: 'params_validation' });
  });
});

describe("the pay page's wallet routes (no API key: the link is the capability)", () => {
  const options = (id: string, body: unknown) => web('POST', `/pay/${id}/options`, { body });
  const confirm = (id: string, body: unknown) => web('POST', `/pay/${id}/confirm`, { body });
  const chainTxs = (id: string) => svc.db('chain_transactions').where({ payment_id: id });

  it("options: the gateway's options for the account; malformed input is 400, a bad account 422, no payment 404", async () => {
    const id = await newPayment('100');
    const o = await options(id, { accounts: [BUYER_BASE] });
    expect(o.status).toBe(200);
    expect(o.headers.get('cache-control')).toBe('no-store');
    expect(o.body.options.map((x: any) => [x.account, x.actions.map((a: any) => a.data.method)])).toEqual([
      [BUYER_BASE, ['eth_signTypedData_v4']],
    ]);
    for (const body of [{}, { accounts: [] }, { accounts: 'x' }, { accounts: Array(21).fill(BUYER_BASE) }, { accounts: [1] }, []])
      expect(await options(id, body).then((r) => [r.status, r.body.code])).toEqual([400, 'params_validation']);
    expect(await options(id, { accounts: ['eip155:nope'] }).then((r) => [r.status, r.body.code])).toEqual([422, 'invalid_account']);
    expect(await options('pay_nope', { accounts: [BUYER_BASE] }).then((r) => [r.status, r.body.code])).toEqual([404, 'payment_not_found']);
    const raw = await web('POST', `/pay/${id}/options`, { raw: 'accounts', headers: { 'content-type': 'text/plain' } });
    expect([raw.status, raw.body.code]).toEqual([415, 'unsupported_media_type']);
  });

  it("confirm: the gateway's checks (a stranger's signature is 422, nothing moves); then it pays once, as the page", async () => {
    const id = await newPayment('100');
    const opt = (await options(id, { accounts: [BUYER_BASE] })).body.options[0];
    const td = JSON.parse(opt.actions[0].data.params[1]);
    const stranger = await newBuyer();
    const bad = await confirm(id, { optionId: opt.id, results: [{ type: 'walletRpc', data: [await stranger.signTypedData(td)] }] });
    expect([bad.status, bad.body.code]).toEqual([422, 'invalid_signature']);
    expect([(await svc.db('payments').where({ id }).first()).status, await chainTxs(id)]).toEqual(['requires_action', []]);
    for (const body of [{ results: [] }, { optionId: opt.id }, { optionId: opt.id, results: [{ type: 'walletRpc', data: [7] }] }])
      expect(await confirm(id, body).then((r) => [r.status, r.body.code])).toEqual([400, 'params_validation']);
    const good = { optionId: opt.id, results: [{ type: 'walletRpc', data: [await buyer.signTypedData(td)] }] };
    const [a, b] = await Promise.all([confirm(id, good), confirm(id, good)]);
    expect([a.status, b.status, a.body.status]).toEqual([200, 200, 'processing']);
    const stored = await eventually(
      () => svc.db('payments').where({ id }).first(),
      (p) => p.status === 'succeeded',
      30_000,
    );
    expect(stored.caller_info).toEqual({ keyId: expect.stringMatching(/^page_[0-9a-f]{24}$/), keyType: 'page' });
    expect((await chainTxs(id)).filter((t) => t.purpose === 'collect')).toHaveLength(1);
  });

  it('options of a final payment: options null and how it ended, for the page to show instead of an error', async () => {
    const id = await newPayment('100');
    await m.asMerchant('POST', `/v1/payments/${id}/cancel`);
    const o = await options(id, { accounts: [BUYER_BASE] });
    expect({ status: o.status, body: o.body }).toEqual({
      status: 200,
      body: { options: null, status: 'cancelled', statusText: 'This payment was cancelled.' },
    });
  });
});

describe("the pages' JSON routes answer bad input as the API does (spec/internal/hosted.yaml)", () => {
  /** Status, code and the issues' fields of a reply: the API's 400 body, `issues` of {field, message}. */
  const refusal = async (r: Promise<{ status: number; body: any }>) => {
    const { status, body } = await r;
    expect(body.issues?.every((i: any) => typeof i.field === 'string' && typeof i.message === 'string')).not.toBe(false);
    expect(body.requestId).toMatch(/^req_/);
    return { status, code: body.code, fields: body.issues?.map((i: any) => i.field) };
  };
  const invalid = (...fields: string[]) => ({ status: 400, code: 'params_validation', fields });

  it('options: accounts missing, not an array, or of the wrong items are 400 params_validation naming /accounts', async () => {
    const id = await newPayment('100');
    const options = (body: unknown) => refusal(web('POST', `/pay/${id}/options`, { body }));
    expect(await options({})).toEqual(invalid('/accounts'));
    expect(await options({ accounts: BUYER_BASE })).toEqual(invalid('/accounts'));
    expect(await options({ accounts: [] })).toEqual(invalid('/accounts'));
    expect(await options({ accounts: ['x'.repeat(201)] })).toEqual(invalid('/accounts/0'));
    expect(await options({ accounts: [BUYER_BASE], refresh: 'all' })).toEqual(invalid('/refresh'));
    // The same answer as the gateway's operation gives for the same body (its 400 lists params_validation too).
    const api = await gwDirect('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: BUYER_BASE } });
    expect({ status: api.status, code: api.body.code, fields: api.body.issues.map((i: any) => i.field) }).toEqual(invalid('/accounts'));
    expect((await web('POST', `/pay/${id}/options`, { body: { accounts: [BUYER_BASE], unknown: 1 } })).status).toBe(200);
  });

  it('confirm: an optionId too long, results missing or malformed are 400 params_validation naming the field', async () => {
    const id = await newPayment('100');
    const opt = (await web('POST', `/pay/${id}/options`, { body: { accounts: [BUYER_BASE] } })).body.options[0];
    const confirm = (body: unknown) => refusal(web('POST', `/pay/${id}/confirm`, { body }));
    const results = [{ type: 'walletRpc', data: ['0x00'] }];
    expect(await confirm({ optionId: 'o'.repeat(65), results })).toEqual(invalid('/optionId'));
    expect(await confirm({ optionId: opt.id })).toEqual(invalid('/results'));
    expect(await confirm({ optionId: opt.id, results: 'sig' })).toEqual(invalid('/results'));
    expect(await confirm({ optionId: opt.id, results: [{ data: ['0x00'] }] })).toEqual(invalid('/results/0/type'));
    expect(await confirm({ results })).toEqual(invalid('/optionId'));
    // Well-formed but not this option's signature: past validation, to the gateway's checks.
    expect((await confirm({ optionId: opt.id, results })).code).not.toBe('params_validation');
    expect((await svc.db('payments').where({ id }).first()).status).toBe('requires_action');
  });

  it("fetch: optionId or data missing is 400 naming it; else the gateway's fetch, answered as its operation answers", async () => {
    const id = await newPayment('100');
    const opt = (await web('POST', `/pay/${id}/options`, { body: { accounts: [BUYER_BASE] } })).body.options[0];
    const fetchActions = (body: unknown) => refusal(web('POST', `/pay/${id}/fetch`, { body }));
    expect(await fetchActions({ data: 'native' })).toEqual(invalid('/optionId'));
    expect(await fetchActions({ optionId: opt.id })).toEqual(invalid('/data'));
    const page = await web('POST', `/pay/${id}/fetch`, { body: { optionId: opt.id, data: 'x' } });
    const api = await gwDirect('POST', `/v1/gateway/payment/${id}/fetch`, { body: { optionId: opt.id, data: 'x' } });
    expect([page.status, page.headers.get('cache-control'), page.body]).toEqual([200, 'no-store', { actions: api.body.actions }]);
    const none = await web('POST', `/pay/${id}/fetch`, { body: { optionId: 'opt_nope', data: 'x' } });
    const apiNone = await gwDirect('POST', `/v1/gateway/payment/${id}/fetch`, { body: { optionId: 'opt_nope', data: 'x' } });
    // The page answers the service's own code; the API version, its contract's code with that one as the reason.
    expect([none.status, none.body.code, apiNone.body.reason ?? apiNone.body.code]).toEqual([404, 'option_not_found', 'option_not_found']);
  });

  it('status: a maxPollMs that is no integer is 400 naming it; the body limit and media type are the API’s', async () => {
    const id = await newPayment('100');
    for (const q of ['-1', 'soon', '1e3', '1.5'])
      expect(await refusal(web('GET', `/pay/${id}/status?maxPollMs=${q}`))).toEqual(invalid('maxPollMs'));
    expect((await web('GET', `/pay/${id}/status?maxPollMs=0`)).body).toMatchObject({ status: 'requires_action', isFinal: false });
    const big = await web('POST', `/pay/${id}/options`, { body: { accounts: ['x'.repeat(300 * 1024)] } });
    expect({ status: big.status, code: big.body.code }).toEqual({ status: 413, code: 'payload_too_large' });
    const none = await web('POST', `/pay/${id}/options`);
    expect({ status: none.status, code: none.body.code }).toEqual({ status: 400, code: 'params_validation' });
  });

  it('collect: pid missing or not text, accounts or data of the wrong type are 400 params_validation naming the field', async () => {
    const post = (body: unknown) => refusal(web('POST', '/collect', { body }));
    expect(await post({ data: DATA })).toEqual(invalid('/pid'));
    expect(await post({ pid: 7, data: DATA })).toEqual(invalid('/pid'));
    expect(await post({ pid: 'pay_nope', accounts: [BUYER_BASE], data: DATA })).toEqual(invalid('/accounts'));
    expect(await post({ pid: 'pay_nope', data: 'Ada' })).toEqual(invalid('/data'));
    expect((await post({ pid: 'pay_nope', data: DATA })).code).toBe('payment_not_found');
  });
});

describe('the data-collection page', () => {
  beforeAll(() => admin('accounts', 'set-threshold', '--account', m.accountId, '--minor', '500'));
  const offer = async (id: string) => {
    const o = await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [BUYER_BASE] } });
    if (o.status !== 200) throw new Error(o.text);
    return o.body;
  };
  const post = (body: unknown) => web('POST', '/collect', { body });
  /** What the form posts besides the data: the query of the collectData url the wallet was given. */
  const linkOf = (o: { collectData: { url: string } }) => Object.fromEntries(new URL(o.collectData.url).searchParams);
  const key = loadConfig({ ...process.env, NODE_ENV: 'test' }).dataEncryptionKey;
  const dataOf = async (optionId: string) => {
    const { collected_data } = await svc.db('payment_options').where({ id: optionId }).first('collected_data');
    return (
      collected_data && JSON.parse(unseal(key, collected_data, { table: 'payment_options', column: 'collected_data', row: [optionId] }))
    );
  };

  it('renders a form from the schema at the collectData url', async () => {
    const id = await newPayment('1000');
    const url = new URL((await offer(id)).collectData.url);
    const r = await web('GET', url.pathname + url.search);
    expect(r.status).toBe(200);
    for (const f of ['fullName', 'dob', 'pobCountry', 'pobAddress', 'porCountry', 'porAddress', 'tosConfirmed'])
      expect(r.text).toContain(`name="${f}"`);
    expect(r.text).toContain('pattern="^[A-Z]{2}$"');
    expect(r.text).toContain('maxlength="200"');
  });

  it("refuses invalid data with the gateway's issues; valid data reaches confirm, which then needs none", async () => {
    const id = await newPayment('1000');
    const o = await offer(id);
    const bad = await post({ pid: id, accounts: BUYER_BASE, data: { ...DATA, dob: 'yesterday', porCountry: 'gb', tosConfirmed: false } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('params_validation');
    expect(bad.body.issues.map((i: any) => i.field).sort()).toEqual(['/data/dob', '/data/porCountry', '/data/tosConfirmed']);
    expect((await post({ pid: id, accounts: BUYER_BASE, data: { fullName: 'A', dob: '2000-01-01', tosConfirmed: true } })).status).toBe(
      400,
    );
    expect((await post({ pid: 'pay_nope', data: DATA })).body.code).toBe('payment_not_found');

    expect((await post({ ...linkOf(o), data: DATA })).body).toEqual({ stored: true });
    // A fresh quote for the same account inherits the data: the wallet confirms without sending it.
    const again = (await offer(id)).options[0];
    const sig = await buyer.signTypedData(JSON.parse(again.actions[0].data.params[1]));
    const c = await gw('POST', `/v1/gateway/payment/${id}/confirm`, {
      body: { optionId: again.id, results: [{ type: 'walletRpc', data: [sig] }] },
    });
    expect(c.status).toBe(200);
    expect(c.body.status).toBe('processing');
    const stored = (await svc.db('payments').where({ id }).first()).collected_data as Buffer;
    expect(stored.toString('latin1')).not.toContain('Lovelace');
    expect(o.options[0].id).not.toBe(again.id);
  });

  it('POST /collect refuses a __proto__ (or unknown) field id with issues and stores nothing; takes the string forms', async () => {
    const id = await newPayment('1000');
    const o = await offer(id);
    const options = () => svc.db('payment_options').where({ payment_id: id }).select('id', 'collected_data');
    const proto = await web('POST', '/collect', {
      raw: `{"pid":"${id}","accounts":"${BUYER_BASE}","data":{"__proto__":${JSON.stringify(DATA)}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.status).toBe(400);
    expect(proto.body).toEqual({
      code: 'params_validation',
      message: expect.any(String),
      requestId: expect.stringMatching(/^req_/),
      issues: [{ field: '/data/__proto__', message: expect.stringContaining('not a known field') }],
    });
    const inFields = await post({ pid: id, accounts: BUYER_BASE, data: { fields: [{ id: '__proto__', value: DATA }] } });
    expect({ status: inFields.status, code: inFields.body.code, issues: inFields.body.issues }).toEqual({
      status: 400,
      code: 'params_validation',
      issues: [{ field: '/data/fields/0/id', message: expect.stringContaining('not a known field') }],
    });
    expect((await options()).map((r) => r.collected_data)).toEqual(o.options.map(() => null));

    const strings = { fields: Object.entries({ ...DATA, tosConfirmed: 'true' }).map(([fid, value]) => ({ id: fid, value })) };
    expect((await post({ ...linkOf(o), data: strings })).body).toEqual({ stored: true });
    for (const r of await options()) expect(await dataOf(r.id)).toEqual(DATA);
  });

  it("takes data only through the link the buyer's wallet was given: the pay link alone overwrites nothing", async () => {
    const id = await newPayment('1000');
    const o = await offer(id);
    const link = linkOf(o);
    expect(link).toEqual({ pid: id, accounts: BUYER_BASE, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect((await post({ ...link, data: DATA })).body).toEqual({ stored: true });
    const EVIL = { ...DATA, fullName: 'Mallory', porAddress: '1 Elsewhere St' };

    // With the pay link only (pid), naming the buyer's account or none, or a made-up token: 403, nothing changes.
    for (const body of [
      { pid: id, accounts: BUYER_BASE, data: EVIL },
      { pid: id, data: EVIL },
      { pid: id, accounts: BUYER_BASE, token: 'A'.repeat(43), data: EVIL },
    ]) {
      const r = await post(body);
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 403, code: 'forbidden' });
    }
    expect(await dataOf(o.options[0].id)).toEqual(DATA);
    const page = await web('GET', `/collect?pid=${id}&accounts=${encodeURIComponent(BUYER_BASE)}`);
    expect(page.text).toContain('open it from your wallet');
    expect(page.text).not.toContain('<form');

    // Another wallet asking for quotes for the same buyer gets a link of its own: its data stays on its
    // quotes, and the buyer's wallet's next quote still inherits the buyer's.
    const other = await merchantWithSettlement(svc, 'Another partner');
    const gw2 = client(svc.url, { 'Api-Key': (await newKey(other.accountId, 'wallet')).apiKey });
    const theirs = (await gw2('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [BUYER_BASE] } })).body;
    expect(linkOf(theirs).token).not.toBe(link.token);
    expect((await post({ ...linkOf(theirs), data: EVIL })).body).toEqual({ stored: true });
    expect(await dataOf(theirs.options[0].id)).toEqual(EVIL);
    expect(await dataOf(o.options[0].id)).toEqual(DATA);
    const again = await offer(id);
    expect(linkOf(again)).toEqual(link); // the same link for the same wallet and payment
    expect(await dataOf(again.options[0].id)).toEqual(DATA);

    // The buyer, holding the link, may still correct the data before confirming.
    const corrected = { ...DATA, porAddress: '13 St James Sq, London' };
    expect((await post({ ...link, data: corrected })).body).toEqual({ stored: true });
    expect(await dataOf(again.options[0].id)).toEqual(corrected);
    expect(await dataOf(theirs.options[0].id)).toEqual(EVIL);
  });

  it('a payment below the threshold or no longer open takes no data', async () => {
    const small = await newPayment('100');
    expect((await post({ pid: small, data: DATA })).body.code).toBe('invalid_state');
    expect((await web('GET', `/collect?pid=${small}`)).text).toContain('needs no details');
    const big = await newPayment('1000');
    await offer(big);
    await m.asMerchant('POST', `/v1/payments/${big}/cancel`);
    expect((await post({ pid: big, data: DATA })).body.code).toBe('invalid_state');
    expect((await web('POST', '/collect', { raw: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
  });
});
