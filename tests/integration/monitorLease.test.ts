import { startTestService, type TestService, describeOwn } from '../support/service';
import { eventually } from '../support/eventually';

// The relayer's monitors pass every CHAIN_POLL_INTERVAL_MS (250 ms in tests); an idle pass must not write: the
// lease (chain_monitors) is renewed only once half of it has passed, which is what keeps idle services cheap.

describeOwn('the chain monitor lease', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('is held by the service and not written again by its idle passes', async () => {
    // Every lease row of the database: those of services of earlier test files are not renewed by anybody.
    const leases = () => svc.db('chain_monitors').select('chain_id', 'holder', 'lease_until').orderBy('chain_id');
    // Leases (of 10 s) taken in the last 2 s: this service's, the only one running.
    const fresh = (rows: { lease_until: Date }[]) => rows.filter((r) => r.lease_until.getTime() > Date.now() + 8000).length;
    // Both development chains' monitors of its relayer key hold a lease.
    const before = await eventually(leases, (rows) => fresh(rows) >= 2);
    expect(fresh(before)).toBe(2);
    // Four passes' time: every lease is as it was.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await leases()).toEqual(before);
  });
});
