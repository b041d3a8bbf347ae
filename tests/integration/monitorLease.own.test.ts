import { eventually } from '../support/eventually';
import { startTestService, type TestService } from '../support/service';

// The relayer's monitors pass every CHAIN_POLL_INTERVAL_MS (250 ms in tests); an idle pass must not write: the
// lease (chain_monitors) is renewed only once half of it has passed, which is what keeps idle services cheap.

describe('the chain monitor lease', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('is held by the service and not written again by its idle passes', async () => {
    type Lease = { chain_id: string; holder: string; lease_until: Date };
    const leases = (): Promise<Lease[]> => svc.db('chain_monitors').select('chain_id', 'holder', 'lease_until').orderBy('chain_id');
    // Leases (of 10 s) taken in the last 2 s: this service's (its relayer key is its own). A process of an earlier
    // test file that is still stopping may hold others, of the shared development relayer key.
    const fresh = (rows: Lease[]) => rows.filter((r) => r.lease_until.getTime() > Date.now() + 8000);
    // Both development chains' monitors of its relayer key hold a lease, under one holder (the service).
    const before = fresh(await eventually(leases, (rows) => fresh(rows).length >= 2));
    expect(before).toHaveLength(2);
    const holder = before[0].holder;
    expect(before[1].holder).toBe(holder);
    // Four passes' time: its leases are as they were.
    await new Promise((r) => setTimeout(r, 1000));
    expect((await leases()).filter((r) => r.holder === holder)).toEqual(before);
  });
});
