import { eventually } from '../support/eventually';
import { client } from '../support/service';
import { maxOpenAtOnce, type Receiver, startReceiver } from '../support/webhookReceiver';
import { figures, latency, ownStack, partner, send } from './kit';

// One tenant whose webhook receivers are tarpits (two accept the connection and never answer, one answers
// after 10 s) and a backlog of deliveries to them; another tenant's deliveries keep the latency they have
// alone. The per-endpoint and per-account in-flight caps (WEBHOOK_MAX_IN_FLIGHT_PER_*, defaults) are what
// hold the attacker to its share of the process's delivery slots.

jest.setTimeout(150_000);

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
const TIMEOUT_MS = 15_000; // WEBHOOK_TIMEOUT_MS: long enough that the slow receiver's answer after 10 s counts
const VICTIM_EVENTS = 15;
const ATTACKER_PAYMENTS = 30; // x 3 endpoints: 90 deliveries queued

const paymentOf = (r: { body: any }) => r.body?.data?.payment?.paymentId as string;

describe("one tenant's tarpit webhook receivers", () => {
  it("another tenant's deliveries keep their normal latency", async () => {
    const stack = await ownStack('paygate_faults_tarpit', { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) });
    const receivers: Receiver[] = [];
    try {
      const svc = await stack.start();
      const tenant = async (name: string, urls: string[]) => {
        const p = await partner(svc.url, stack.dbUrl, name);
        const hooks = client(svc.url, { 'Api-Key': p.apiKey, ...PREVIEW });
        for (const [i, url] of urls.entries()) {
          const r = await hooks('POST', '/v1/webhook-endpoints', {
            body: { url, enabledEvents: ['payment.created'] },
            headers: { 'Idempotency-Key': `${name}-endpoint-${i}` },
          });
          if (r.status !== 201) throw new Error(r.text);
        }
        return p;
      };
      const newPayment = async (p: { headers: Record<string, string> }, ref: string) => {
        const r = await send(svc.url, 'POST', '/v1/payments', p.headers, {
          referenceId: ref,
          amount: { unit: 'iso4217/USD', value: '100' },
        });
        if (r.status !== 201) throw new Error(JSON.stringify(r.body));
        return r.body.paymentId as string;
      };
      const prompt = await startReceiver();
      const pits = [await startReceiver(), await startReceiver(), await startReceiver()];
      receivers.push(prompt, ...pits);
      pits[0].respond = () => 'hang';
      pits[1].respond = () => 'hang';
      pits[2].respond = () => ({ status: 200, afterMs: 10_000 });
      const victim = await tenant('Victim', [prompt.url]);
      const attacker = await tenant(
        'Attacker',
        pits.map((p) => p.url),
      );

      /** The victim's events one after another; each one's latency from its payment request to its arrival. */
      const victimRound = async (round: string, events = VICTIM_EVENTS) => {
        const sentAt = new Map<string, number>();
        for (let i = 0; i < events; i++) {
          const at = Date.now();
          sentAt.set(await newPayment(victim, `${round}-${i}`), at);
        }
        const got = (await prompt.until((all) => all.filter((r) => sentAt.has(paymentOf(r))).length >= events, 60_000)).filter((r) =>
          sentAt.has(paymentOf(r)),
        );
        return latency(got.map((r) => r.at - sentAt.get(paymentOf(r))!));
      };

      await victimRound('warm-up', 3); // the first connection and code paths, measured in neither round
      const alone = await victimRound('alone');

      // The attacker's backlog, until its tarpits hold every slot it may have.
      for (let i = 0; i < ATTACKER_PAYMENTS; i += 10)
        await Promise.all(Array.from({ length: 10 }, (_, j) => newPayment(attacker, `attack-${i + j}`)));
      const held = await eventually(
        async () => pits.reduce((n, p) => n + p.open(), 0),
        (n) => n >= 8,
        20_000,
      );
      expect(held).toBe(8); // WEBHOOK_MAX_IN_FLIGHT_PER_ACCOUNT's default
      const underAttack = await victimRound('attacked');
      const attackerOpenAfter = pits.reduce((n, p) => n + p.open(), 0);

      figures('webhook-tarpit', {
        victimAloneMs: alone,
        victimUnderAttackMs: underAttack,
        p50Ratio: Number((underAttack.p50 / Math.max(1, alone.p50)).toFixed(2)),
        attacker: {
          queued: ATTACKER_PAYMENTS * 3,
          heldAtOnce: maxOpenAtOnce(...pits),
          perEndpoint: pits.map((p) => maxOpenAtOnce(p)),
          openAfterVictimRound: attackerOpenAfter,
        },
      });
      // The victim's deliveries all arrived, about as fast as alone (generous: a loaded 2-core machine).
      expect(underAttack.n).toBe(VICTIM_EVENTS);
      expect(underAttack.p50).toBeLessThanOrEqual(5 * alone.p50 + 200);
      expect(underAttack.p99).toBeLessThanOrEqual(5 * alone.p99 + 1000);
      // The attacker was held at its caps the whole time: 8 for the account, 4 per endpoint.
      expect(maxOpenAtOnce(...pits)).toBe(8);
      for (const p of pits) expect(maxOpenAtOnce(p)).toBeLessThanOrEqual(4);
    } finally {
      for (const r of receivers) await r.close();
      await stack.close();
    }
  });
});
