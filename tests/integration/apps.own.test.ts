import pg from 'pg';
import { newWallet } from '../support/chain';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { admin, adminWith, client, newApp, startTestService, TestService } from '../support/service';

// App credentials (App-Id + Client-Id) are revoked with the built admin command; from then on every
// process refuses them (401 invalid_api_key), at once. Two service instances on the same database stand
// for two processes.

describe('app revocation', () => {
  let one: TestService;
  let two: TestService;
  beforeAll(async () => {
    [one, two] = [await startTestService(), await startTestService()];
  }, 60_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
  });

  it('admin apps revoke: the next gateway call with the app is 401 invalid_api_key in every process; other apps go on', async () => {
    const m = await merchantWithSettlement(one, 'Revoking Shop');
    const p = await m.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value: '1000' } },
    });
    expect(p.status).toBe(201);
    const app = await newApp(m.accountId, 'Doomed Wallet');
    const other = await newApp(m.accountId, 'Other Wallet');
    const as = (svc: TestService, a: Record<string, string>) => client(svc.url, { 'App-Id': a.appId, 'Client-Id': a.clientId });
    for (const svc of [one, two]) expect((await as(svc, app)('GET', `/v1/gateway/payment/${p.body.paymentId}`)).status).toBe(200);

    const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    const announced: string[] = [];
    listener.on('notification', (n) => announced.push(n.payload ?? ''));
    await listener.query('LISTEN api_key_revoked');
    try {
      const revoked = await admin('apps', 'revoke', '--app', app.appId);
      expect(revoked).toEqual({ appId: app.appId, revoked: true, revokedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) });
      const row = await one.db('apps').where({ id: app.appId }).first('revoked_at');
      expect(row.revoked_at.toISOString()).toBe(revoked.revokedAt);

      // The very next call, in either process, on any gateway operation.
      for (const svc of [one, two]) {
        const r = await as(svc, app)('GET', `/v1/gateway/payment/${p.body.paymentId}`);
        expect({ status: r.status, body: r.body }).toEqual({
          status: 401,
          body: { code: 'invalid_api_key', message: expect.any(String), requestId: r.headers.get('request-id') },
        });
        const o = await as(svc, app)('POST', `/v1/gateway/payment/${p.body.paymentId}/options`, {
          body: { accounts: [`eip155:31337:${newWallet()}`] },
        });
        expect({ status: o.status, code: o.body.code }).toEqual({ status: 401, code: 'invalid_api_key' });
        expect((await as(svc, other)('GET', `/v1/gateway/payment/${p.body.paymentId}`)).status).toBe(200);
      }
      // Announced to every process, like a key revocation.
      for (let i = 0; i < 50 && !announced.includes(app.appId); i++) await new Promise((r) => setTimeout(r, 20));
      expect(announced).toContain(app.appId);

      // Revoking again keeps the first time.
      expect(await admin('apps', 'revoke', '--app', app.appId)).toEqual(revoked);
      expect((await one.db('apps').where({ id: app.appId }).first('revoked_at')).revoked_at.toISOString()).toBe(revoked.revokedAt);
      expect((await one.db('apps').where({ id: other.appId }).first('revoked_at')).revoked_at).toBeNull();
    } finally {
      await listener.end();
    }
  }, 60_000);

  it('an unknown app is an error (exit 1), a missing --app a usage error (exit 2); nothing changes', async () => {
    const unknown = await adminWith({}, 'apps', 'revoke', '--app', 'app_0000000000000000000000');
    expect({ code: unknown.code, stderr: JSON.parse(unknown.stderr) }).toEqual({
      code: 1,
      stderr: { error: 'no app app_0000000000000000000000' },
    });
    const usage = await adminWith({}, 'apps', 'revoke');
    expect({ code: usage.code, stderr: JSON.parse(usage.stderr) }).toEqual({ code: 2, stderr: { error: '--app is required' } });
  });
});
