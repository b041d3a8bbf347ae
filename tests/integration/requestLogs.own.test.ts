import { randomBytes } from 'node:crypto';
import { generatePrivateKey } from 'viem/accounts';
import { loggablePaymentId } from '../../src/domain/gatewayId';
import { newBuyer, newWallet } from '../support/chain';
import { flow } from '../support/chainSuite';
import { eventually } from '../support/eventually';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, newKey, TestService } from '../support/service';
import { ServiceProcess, spawnService } from '../support/serviceProcess';

// What the built service writes to its log (JSON lines on stdout): a payment id, and a buyer link that
// carries one, are bearer capabilities on the gateway, so request lines never contain them; and a
// service sealing with the public development key says so loudly at start.

const REDACTED = 'pay_…[redacted]';
type Line = Record<string, unknown> & { level: number; msg: string };

describe('request logs', () => {
  let p: ServiceProcess;
  beforeAll(async () => {
    p = await spawnService({ DEVNET_RELAYER_KEYS: generatePrivateKey(), NODE_ENV: 'test' }); // no DATA_ENCRYPTION_KEY
  }, 60_000);
  afterAll(() => p?.kill('SIGTERM'));

  it('carry no payment id or buyer link: gateway, hosted and merchant paths are logged redacted', async () => {
    const svc = { url: p.url, directUrl: p.url } as TestService;
    const m = await merchantWithSettlement(svc, 'Logged Shop');
    const created = await m.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '1000' } },
    });
    expect(created.status).toBe(201);
    const id: string = created.body.paymentId;
    const link: string = created.body.gatewayUrl; // https://pay.example.com/?pid=pay_…
    expect(link).toContain(id);
    const wallet = await newKey(m.accountId, 'wallet');
    const gw = client(p.url, { 'Api-Key': wallet.apiKey });

    const calls: [Promise<{ status: number; headers: Headers }>, number, string][] = [
      [gw('GET', `/v1/gateway/payment/${id}`), 200, `/v1/gateway/payment/${REDACTED}`],
      [gw('GET', `/v1/gateway/payment/${encodeURIComponent(link)}`), 200, `/v1/gateway/payment/${REDACTED}`],
      [gw('GET', `/v1/gateway/payment/${encodeURIComponent(encodeURIComponent(link))}`), 200, `/v1/gateway/payment/${REDACTED}`],
      [
        gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [`eip155:31337:${newWallet()}`] } }),
        200,
        `/v1/gateway/payment/${REDACTED}/options`,
      ],
      [gw('GET', `/v1/gateway/payment/${id}/status`), 200, `/v1/gateway/payment/${REDACTED}/status`],
      [gw('GET', `/v1/gateway/payment/${id}/nowhere`), 404, `/v1/gateway/payment/${REDACTED}/nowhere`],
      [client(p.url)('GET', `/v1/gateway/payment/${id}`), 401, `/v1/gateway/payment/${REDACTED}`],
      [client(p.url)('GET', `/pay/${id}/status`), 200, `/pay/${REDACTED}/status`],
      [client(p.url)('GET', `/?pid=${id}`), 200, '/'],
      [m.asMerchant('GET', `/v1/payments/${id}`), 200, `/v1/payments/${REDACTED}`],
    ];
    const answered = await Promise.all(calls.map(([r]) => r));
    expect(answered.map((r) => r.status)).toEqual(calls.map(([, status]) => status));

    const lineOf = (requestId: string) => (p.logs as Line[]).find((l) => l.msg === 'request' && l.requestId === requestId);
    const ids = answered.map((r) => r.headers.get('request-id')!);
    await eventually(
      async () => ids.map(lineOf),
      (ls) => ls.every(Boolean),
    );
    const lines = ids.map((rid) => lineOf(rid)!);
    expect(lines.map((l) => l.path)).toEqual(calls.map(([, , path]) => path));
    const pid = id.slice('pay_'.length);
    for (const l of lines) {
      const text = JSON.stringify(l);
      expect(text).not.toContain(pid);
      expect(text).not.toContain('pay.example.com');
    }
    // Nor any request line of the whole run.
    for (const l of (p.logs as Line[]).filter((x) => x.msg === 'request')) expect(JSON.stringify(l)).not.toContain(pid);
  });

  it("name a payment in the relayer's lines by a prefix that grants nothing: never the id", async () => {
    const svc = { url: p.url, directUrl: p.url } as TestService;
    const m = await merchantWithSettlement(svc, 'Relayed Log Shop');
    const gw = client(p.url, { 'Api-Key': (await newKey(m.accountId, 'wallet')).apiKey });
    const f = flow(p.url, m, gw);
    const buyer = await newBuyer(10_000_000n);
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).body.status).toBe('processing');
    await f.until(id, (d) => d.status === 'succeeded' && d.settlement?.successful, 60_000);
    const named = (msg: string) => (p.logs as Line[]).filter((l) => l.msg === msg && l.paymentId === loggablePaymentId(id));
    expect(named('authorization submitted').map((l) => l.paymentId)).toEqual([`${id.slice(0, 12)}…`]);
    const pid = id.slice('pay_'.length);
    expect((p.logs as Line[]).filter((l) => JSON.stringify(l).includes(pid))).toEqual([]);
  }, 90_000);

  it('warn at start, loudly, when buyer data and secrets are sealed with the public development key', async () => {
    const warned = (logs: Line[]) => logs.filter((l) => l.level === 40 && /PUBLIC development key/.test(l.msg));
    expect(warned(p.logs as Line[])).toEqual([
      expect.objectContaining({ dataKeyId: 'dev', msg: expect.stringContaining('Set DATA_ENCRYPTION_KEY') }),
    ]);
    const keyed = await spawnService({
      DEVNET_RELAYER_KEYS: generatePrivateKey(),
      NODE_ENV: 'test',
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    });
    try {
      expect(warned(keyed.logs as Line[])).toEqual([]);
    } finally {
      await keyed.kill('SIGTERM');
    }
  }, 60_000);
});
