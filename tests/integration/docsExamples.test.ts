import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { client, newKey, startTestService, type TestService } from '../support/service';
import { DEVNET_USDC, newBuyer, newWallet } from '../support/chain';

// The rendered reference's getting-started, run as a reader runs it (issue 46): every example of the page this
// instance serves at /docs (its command, each request with the headers and body it shows, the curl) against this
// instance, each checked to answer as the page says; and the payment it makes is paid, so the asset the page settles
// and pays in is one this instance serves (src/http/docsExamples.ts fills it in; the spec's USDC on Base is not).

const root = path.resolve(__dirname, '../..');
const exec = promisify(execFile);

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
}, 60_000);
afterAll(() => svc.close());

const ENTITIES: Record<string, string> = { '&quot;': '"', '&#x27;': "'", '&#39;': "'", '&lt;': '<', '&gt;': '>', '&amp;': '&' };
const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&(quot|#x27|#39|lt|gt|amp);/g, (e) => ENTITIES[e]);
const codes = (html: string) => [...html.matchAll(/<code[^>]*>([\s\S]*?)<\/code>/g)].map((m) => text(m[1]));

/** The "Getting started" section of a served page, as it is rendered (what a reader reads and copies). */
async function gettingStarted(version: string): Promise<string> {
  const r = await fetch(`${svc.directUrl}/docs/${version}`);
  expect(r.status).toBe(200);
  const page = await r.text();
  expect(page).not.toContain('@@EXAMPLE_'); // every placeholder filled
  const from = page.indexOf('<span>Getting started</span></div></h2>');
  expect(from).toBeGreaterThan(0);
  return page.slice(from, page.indexOf('</h2>', from + 60));
}

/** A response field the page names (`merchant.id`) read from the body. */
const field = (body: any, name: string) => name.split('.').reduce((v, k) => v?.[k], body);

describe("the rendered getting-started's examples, on the instance that serves them", () => {
  it.each(['2026-02-18', '2026-02-19.preview'])('%s: the page settles and pays in an asset of this instance', async (v) => {
    const section = await gettingStarted(v);
    expect(text(section)).toContain('USDC on paygate devnet to the merchant');
    expect(codes(section)).toContainEqual(expect.stringContaining(`"asset": "${DEVNET_USDC}"`));
    expect(text(section)).not.toContain('Base');
  });

  it('each step answers as documented, the curl too, and the payment it creates is paid', async () => {
    const section = await gettingStarted('2026-02-18');
    const steps = [...section.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((m) => m[1]);
    expect(steps).toHaveLength(5);

    // 1. The operator's command, as written.
    const command = codes(steps[0])[0];
    expect(command).toMatch(/^npm run --silent admin -- accounts create --name "Acme"$/);
    const created = JSON.parse((await exec('sh', ['-c', command], { cwd: root, env: process.env })).stdout);
    expect(created).toMatchObject({ accountId: expect.stringMatching(/^acct_/), apiKey: expect.any(String) });

    // 2.-5. Each request with what the step shows; a header a step names is sent from then on, as a reader would.
    const values: Record<string, string> = { '0x…': newWallet() };
    const fill = (s: string) =>
      Object.entries(values)
        .reduce((t, [k, val]) => t.split(k).join(val), s)
        .replace(/<uuid>/g, () => randomUUID());
    const headers: Record<string, string> = { 'Api-Key': created.apiKey };
    const sent: { method: string; path: string; body?: unknown }[] = [];
    let asset = '';
    const run = async (step: string) => {
      const all = codes(step);
      const [method, target] = all.find((c) => /^(GET|POST) \//.test(c))!.split(' ');
      for (const c of all) {
        const h = /^([A-Z][A-Za-z-]+): (.+)$/.exec(c);
        if (h) headers[h[1]] = h[2];
      }
      const json = all.find((c) => c.startsWith('{'));
      const body = json ? JSON.parse(fill(json)) : undefined;
      const filledHeaders = Object.fromEntries(Object.entries(headers).map(([k, val]) => [k, fill(val)]));
      const r = await client(svc.url, filledHeaders)(method, fill(target), { body });
      sent.push({ method, path: fill(target), body });
      const documented = /answers (\d{3})/.exec(text(step));
      // The status the step documents, else a success; the body shown when it is not.
      const want = documented ? Number(documented[1]) : r.status < 300 ? r.status : 200;
      expect({ step: target, status: r.status, body: r.status < 300 ? 'ok' : r.body }).toEqual({ step: target, status: want, body: 'ok' });
      // The response fields the step names (`merchant.id`, `paymentId`, `isFinal`) are there.
      for (const name of all.filter((c) => /^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)*$/.test(c)))
        expect({ name, value: field(r.body, name) }).toEqual({ name, value: expect.anything() });
      return { r, body };
    };

    const merchant = (await run(steps[1])).r.body;
    expect(merchant.merchant.id).toMatch(/^mrch_/);
    Object.assign(values, { '{merchantId}': merchant.merchant.id, 'mrch_…': merchant.merchant.id });

    const settled = await run(steps[2]);
    expect(settled.r.status).toBe(201);
    asset = (settled.body as { settlements: { asset: string }[] }).settlements[0].asset;
    expect(asset).toBe(DEVNET_USDC);

    const payment = (await run(steps[3])).r.body;
    values['{id}'] = payment.paymentId;
    // The buyer link opens the hosted page of this payment.
    const link = new URL(payment.gatewayUrl);
    expect((await fetch(`${svc.directUrl}${link.pathname}${link.search}`)).status).toBe(200);

    // The payment can be paid in the settled asset: a buyer on its chain gets an option in it, signs and confirms.
    const buyer = await newBuyer(100_000_000n);
    const gw = client(svc.url, { 'Api-Key': (await newKey(created.accountId, 'wallet')).apiKey });
    const chain = asset.split('/')[0];
    const opts = await gw('POST', `/v1/gateway/payment/${payment.paymentId}/options`, {
      body: { accounts: [`${chain}:${buyer.address}`] },
    });
    const opt = opts.body.options.find((o: any) => o.amount.unit === `caip19/${asset}`);
    expect(opt).toBeDefined();

    // 5. Long-poll while the buyer pays; as the step says, until isFinal.
    const polled = run(steps[4]);
    const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
    const confirmed = await gw('POST', `/v1/gateway/payment/${payment.paymentId}/confirm`, {
      body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] },
    });
    expect(confirmed.status).toBe(200);
    let status = (await polled).r.body;
    for (let i = 0; i < 20 && !status.isFinal; i++) status = (await run(steps[4])).r.body;
    expect({ status: status.status, isFinal: status.isFinal }).toEqual({ status: 'succeeded', isFinal: true });

    // The curl of the page, as written, with BASE, KEY and MERCHANT set.
    const blocks = [...section.matchAll(/<pre[^>]*>([\s\S]*?)<\/pre>/g)].map((m) => text(m[1]));
    expect(blocks).toEqual([expect.stringMatching(/^curl -s \$BASE\/v1\/payments /)]);
    const curl = blocks[0];
    const env = { ...process.env, BASE: svc.url, KEY: created.apiKey, MERCHANT: values['mrch_…'] };
    const out = JSON.parse((await exec('sh', ['-c', curl], { env })).stdout);
    expect(out).toMatchObject({ paymentId: expect.stringMatching(/^pay_/), gatewayUrl: expect.any(String), status: 'requires_action' });
    expect(sent.map((s) => `${s.method} ${s.path.split('?')[0]}`)).toEqual([
      'POST /v1/merchants',
      `POST /v1/merchants/${values['mrch_…']}/settlements/crypto`,
      'POST /v1/payments',
      ...Array(sent.length - 3).fill(`GET /v1/payments/${payment.paymentId}/status`),
    ]);
  }, 120_000);
});
