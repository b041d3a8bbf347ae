import { newBuyer } from '../support/chain';
import { shopWithWallet } from '../support/fixtures';
import { useOwnDatabase } from '../support/freshDb';
import { client, startTestService, type TestService } from '../support/service';

// The budget of reverted submissions (issue 28, finding 4) counted only reverts at confirmation depth, per buyer
// address and per account. Confirms running at once all passed it together: a buyer holding USD 1.00 confirmed five
// USD 1.00 payments at once, each simulation saw the balance, and four submissions would revert. Submissions in flight
// now count against the budget too (a credential's and an account's once they have a revert), decided one confirm at
// a time. The service here runs only the API (ROLE=api): confirmed payments stay in flight, their submissions queued
// in a database of this file's own that no worker reads.

useOwnDatabase('paygate_revert_budget');
jest.setTimeout(120_000);

type Gateway = ReturnType<typeof client>;

/** Quotes the payment for the buyer, signs its authorization: the confirm to send. */
async function signed(gw: Gateway, id: string, buyer: Awaited<ReturnType<typeof newBuyer>>) {
  const opt = (await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [`eip155:31337:${buyer.address}`] } })).body
    .options[0];
  const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
  return () =>
    gw('POST', `/v1/gateway/payment/${id}/confirm`, { body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] } });
}

const outcome = (r: { status: number; body: any }) => (r.status === 200 ? `200 ${r.body.status}` : `${r.status} ${r.body.code}`);
/** The sorted outcomes of confirms at once: `accepted` made processing, `refused` 429 too_many_reverts. */
const tally = (accepted: number, refused: number) => [
  ...Array<string>(accepted).fill('200 processing'),
  ...Array<string>(refused).fill('429 too_many_reverts'),
];

describe('the budget of reverted submissions under confirms at once', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({
      ROLE: 'api',
      REVERT_BUDGET_PER_BUYER: '2',
      REVERT_BUDGET_PER_CREDENTIAL: '3',
      REVERT_BUDGET_PER_ACCOUNT: '100',
    });
  }, 90_000);
  afterAll(() => svc?.close());

  const statuses = async (ids: string[]) => (await svc.db('payments').whereIn('id', ids).pluck('status')).sort();

  it("one buyer's confirms at once: only as many in flight as its budget, the others 429 too_many_reverts", async () => {
    const { gw, pay } = await shopWithWallet(svc, 'Parallel Buyer');
    const buyer = await newBuyer(1_000_000n); // USD 1.00: enough for any one of the payments, not for two
    const ids = await Promise.all(Array.from({ length: 5 }, () => pay()));
    const confirms = await Promise.all(ids.map((id) => signed(gw, id, buyer)));
    const rs = await Promise.all(confirms.map((c) => c()));
    expect(rs.map(outcome).sort()).toEqual(tally(2, 3));
    const refused = rs.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body.message).toMatch(/buyer address/);
    expect(await statuses(ids)).toEqual(['processing', 'processing', 'requires_action', 'requires_action', 'requires_action']);
  });

  it('many buyers at once through one credential and account that have no revert: all go in flight', async () => {
    const { gw, pay } = await shopWithWallet(svc, 'Parallel Credential');
    const buyers = await Promise.all(Array.from({ length: 5 }, () => newBuyer(1_000_000n)));
    const ids = await Promise.all(buyers.map(() => pay()));
    const confirms = await Promise.all(ids.map((id, i) => signed(gw, id, buyers[i])));
    const rs = await Promise.all(confirms.map((c) => c()));
    // Beyond the credential's budget (3) in flight: its ordinary traffic until one of its submissions reverts
    // (contractWallets.own.test.ts shows the count after a revert).
    expect(rs.map(outcome).sort()).toEqual(tally(5, 0));
  });
});
