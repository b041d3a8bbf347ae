import { figures, latency, type Outcome, ownStack, partner, send, sleep } from './kit';

// A flood from one credential: it is answered 429 rate_limited with Retry-After beyond its limit, and
// another account's requests, sent at a steady pace, keep the latency they have alone.

jest.setTimeout(120_000);

const CREDENTIAL_PER_S = 50; // RATE_LIMIT_CREDENTIAL_PER_S (the account's limit is higher: the credential's binds)
const FLOOD_CONCURRENCY = 8; // back to back on each connection: the service's CPU, not the count, bounds the rate
const VICTIM_REQUESTS = 40;
const VICTIM_PACE_MS = 50; // 20 requests a second, well under its own limits

describe('a flood from one credential', () => {
  it('gets 429 rate_limited with Retry-After; another account keeps its latency', async () => {
    const stack = await ownStack('paygate_faults_flood', {
      RATE_LIMIT_CREDENTIAL_PER_S: String(CREDENTIAL_PER_S),
      RATE_LIMIT_ACCOUNT_PER_S: String(2 * CREDENTIAL_PER_S),
    });
    try {
      const svc = await stack.start();
      const flooder = await partner(svc.url, stack.dbUrl, 'Flooder');
      const victim = await partner(svc.url, stack.dbUrl, 'Bystander');
      const victimRound = async () => {
        const rs: Outcome[] = [];
        for (let i = 0; i < VICTIM_REQUESTS; i++) {
          rs.push(await send(svc.url, 'GET', '/v1/merchants?limit=10', { 'Api-Key': victim.apiKey }));
          await sleep(VICTIM_PACE_MS);
        }
        return rs;
      };

      await victimRound(); // warm-up
      const alone = await victimRound();
      let flooding = true;
      const flood: Outcome[] = [];
      const floodStarted = Date.now();
      const floodDone = Promise.all(
        Array.from({ length: FLOOD_CONCURRENCY }, async () => {
          while (flooding) flood.push(await send(svc.url, 'GET', '/v1/merchants?limit=10', { 'Api-Key': flooder.apiKey }));
        }),
      );
      await sleep(300);
      const attacked = await victimRound();
      flooding = false;
      await floodDone;
      const floodMs = Date.now() - floodStarted;

      const ok = flood.filter((r) => r.status === 200);
      const limited = flood.filter((r) => r.status === 429);
      const base = latency(alone.map((r) => r.ms));
      const during = latency(attacked.map((r) => r.ms));
      const windows = Math.floor((floodStarted + floodMs) / 1000) - Math.floor(floodStarted / 1000) + 1;
      figures('credential-flood', {
        flood: {
          requests: flood.length,
          perS: Math.round(flood.length / (floodMs / 1000)),
          ok: ok.length,
          limited: limited.length,
          other: flood.length - ok.length - limited.length,
          ms: floodMs,
        },
        victimAloneMs: base,
        victimDuringFloodMs: during,
        p50Ratio: Number((during.p50 / Math.max(1, base.p50)).toFixed(2)),
      });
      // The flooder: only 200 and 429 rate_limited (with Retry-After), never more 200s than its limit allows.
      expect(flood.length - ok.length - limited.length).toBe(0);
      // How many are refused depends on how fast this machine sends them; that the 200s stay within the limit does not.
      expect(limited.length).toBeGreaterThan(0);
      expect(limited.every((r) => r.body?.code === 'rate_limited' && Number(r.headers!.get('retry-after')) >= 1)).toBe(true);
      expect(ok.length).toBeLessThanOrEqual(CREDENTIAL_PER_S * windows);
      // The other account: every request answered 200, about as fast as alone (generous: a loaded 2-core machine).
      expect([...alone, ...attacked].map((r) => r.status)).toEqual(Array(2 * VICTIM_REQUESTS).fill(200));
      expect(during.p50).toBeLessThanOrEqual(5 * base.p50 + 200);
    } finally {
      await stack.close();
    }
  });
});
