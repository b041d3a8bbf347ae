import { revokeKey } from '../../src/db/apiKeysRepo';

const revokedByOperator = async (db: Parameters<typeof revokeKey>[0], keyId: string) =>
  (await revokeKey(db, keyId, { type: 'operator' })) !== null;
import { eventually } from '../support/eventually';
import { admin, client, newAccount, newKey, startTestService, TestService } from '../support/service';

// A revoked API key is refused (401 invalid_api_key) from the next request on, in every process, however
// warm its key cache: also while a process's listening connection is down (the revocation's NOTIFY
// reaches nobody then) and just after it comes back. Two service instances on one database stand for two
// processes.

describe('API key revocation', () => {
  let one: TestService;
  let two: TestService;
  let accountId: string;
  beforeAll(async () => {
    [one, two] = [await startTestService(), await startTestService()];
    ({ accountId } = await newAccount('Revocations'));
  }, 60_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
  });

  const listeners = async () =>
    Number(
      (
        await one.db.raw(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'paygate-listen' AND datname = current_database()",
        )
      ).rows[0].n,
    );
  /** A partner key that both processes have just authenticated (so each holds it in its cache). */
  async function warmKey() {
    const k = await newKey(accountId, 'partner');
    for (const svc of [one, two]) expect((await client(svc.url, { 'Api-Key': k.apiKey })('GET', '/v1/merchants')).status).toBe(200);
    return k;
  }
  const statusIn = async (svc: TestService, apiKey: string) =>
    (await client(svc.url, { 'Api-Key': apiKey })('GET', '/v1/merchants')).status;

  it('admin keys revoke: the next request is 401 in every process', async () => {
    const k = await warmKey();
    expect(await admin('keys', 'revoke', '--key', k.keyId)).toEqual({ keyId: k.keyId, revoked: true });
    expect([await statusIn(one, k.apiKey), await statusIn(two, k.apiKey)]).toEqual([401, 401]);
  });

  it('while the listening connections are down, and after they are back, a revoked key is refused at once', async () => {
    expect(await listeners()).toBe(2);
    const before = await warmKey();
    // Both processes lose their LISTEN connection; each reconnects a second later.
    await one.db.raw(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'paygate-listen' AND datname = current_database()",
    );
    expect(await eventually(listeners, (n) => n === 0, 2000, 10)).toBe(0);
    await new Promise((r) => setTimeout(r, 100)); // the processes have read the termination
    // Authenticated while deaf (a cache would keep it), then revoked: the NOTIFY reaches no process.
    const deaf = await warmKey();
    expect(await revokedByOperator(one.db, deaf.keyId)).toBe(true);
    expect(await revokedByOperator(one.db, before.keyId)).toBe(true);
    expect([await statusIn(one, deaf.apiKey), await statusIn(two, deaf.apiKey)]).toEqual([401, 401]);
    expect([await statusIn(one, before.apiKey), await statusIn(two, before.apiKey)]).toEqual([401, 401]);

    // Listening again: keys are cached and revocations announced as before.
    expect(await eventually(listeners, (n) => n === 2, 10_000)).toBe(2);
    // Revoked as an operator does it: the notice is sent at its commit, before the command returns.
    const after = await warmKey();
    expect(await admin('keys', 'revoke', '--key', after.keyId)).toEqual({ keyId: after.keyId, revoked: true });
    expect([await statusIn(one, after.apiKey), await statusIn(two, after.apiKey)]).toEqual([401, 401]);
  }, 60_000);
});
