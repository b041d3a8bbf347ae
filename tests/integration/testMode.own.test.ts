import { admin, client, newAccount, newKey, startTestService } from '../support/service';
import { describeIsolation, side, type Side } from '../support/testMode';
import { partner, Partner, rx, svc, useWebhooksSuite } from '../support/webhooksSuite';

// Test mode (docs/testmode.md): the key alone chooses the mode. For one account, a live key and a test key each
// see only their own mode's objects: the other mode's ids answer exactly as ids that do not exist, in every
// operation; lists, counts and webhooks never mix them. Test traffic keeps its own idempotency keys and rate limits.

useWebhooksSuite();

let acct: Partner;
let live: Side;
let test: Side;
let testKey: Record<string, string>;

beforeAll(async () => {
  acct = await partner();
  testKey = await admin('keys', 'create', '--account', acct.accountId, '--type', 'partner', '--mode', 'test');
  const testWallet = await newKey(acct.accountId, 'wallet', undefined, 'test');
  const liveWallet = await newKey(acct.accountId, 'wallet');
  live = await side(
    svc.directUrl,
    { apiKey: acct.apiKey, walletKey: liveWallet.apiKey },
    { hooksUrl: rx.url, merchantId: acct.merchantId },
  );
  test = await side(svc.directUrl, { apiKey: testKey.apiKey, walletKey: testWallet.apiKey }, { hooksUrl: rx.url });
}, 60_000);

describeIsolation(
  () => live,
  () => test,
);

describe('rate limits', () => {
  // Its own service with a low limit: not against an external one (the contract gate's).
  it("test traffic has its own account limit: a test key beyond it leaves the live key's untouched", async () => {
    const limited = await startTestService({ RATE_LIMIT_ACCOUNT_PER_S: '5' });
    try {
      // An account of its own: the counters live in the database, and this file's other tests spend the shared one's.
      const own = await newAccount('Rate limited');
      const ownTest = await newKey(own.accountId, 'partner', undefined, 'test');
      const as = (apiKey: string) => client(limited.directUrl, { 'Api-Key': apiKey });
      // 15 test requests and 4 live ones at once: beyond 5 a second for the test scope, within it for the live one.
      // On a loaded machine one burst can spread over several windows: bursts until the test scope meets its limit.
      const keys = [...Array(15).fill(ownTest.apiKey), ...Array(4).fill(own.apiKey)] as string[];
      let burst: (readonly [string, number])[] = [];
      for (let i = 0; i < 10 && !burst.some(([k, s]) => k === ownTest.apiKey && s === 429); i++)
        burst = await Promise.all(keys.map(async (k) => [k, (await as(k)('GET', '/v1/merchants')).status] as const));
      expect(burst.filter(([k, s]) => k === ownTest.apiKey && s === 429).length).toBeGreaterThan(0);
      expect(burst.filter(([k]) => k === own.apiKey).map(([, s]) => s)).toEqual([200, 200, 200, 200]);
    } finally {
      await limited.close();
    }
  }, 30_000);
});
