import fs from 'node:fs';
import path from 'node:path';
import { getAddress } from 'viem';
import { balanceOf, chainClient, DEVNET_USDC, newBuyer } from '../support/chain';
import { eventually, flow, setup, Shop, useChainSuite } from '../support/chainSuite';
import { uniqueKey } from '../support/fixtures';
import { parseExposition, Sample, sampleValue } from '../support/prometheus';
import { client, startTestService, TestService } from '../support/service';
import { startReceiver, Receiver } from '../support/webhookReceiver';

// The operator kit (ops/, docs/alerts.md) against a running service: every metric the alert rules and the Grafana
// dashboard name is one the service exports, and the gauges the rules page on say what the database and the chain
// say after a payment paid on the development chain, a refund waiting for funding and a webhook endpoint failing.

useChainSuite();

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
const root = path.resolve(__dirname, '../..');
const CHAINS = ['eip155:31337', 'eip155:31338'];

/** Every metric name an expression of the rules or the dashboard reads (the service's, process_ and nodejs_ ones). */
function namedMetrics(): Set<string> {
  const rules = fs.readFileSync(path.join(root, 'ops/prometheus/paygate-alerts.yml'), 'utf8');
  const exprs = [...rules.matchAll(/expr: (\|\n(?: {10}.*\n)+|.*)/g)].map((m) => m[1]);
  const dashboard = JSON.parse(fs.readFileSync(path.join(root, 'ops/grafana/paygate.json'), 'utf8'));
  for (const p of dashboard.panels) for (const t of p.targets ?? []) exprs.push(t.expr);
  return new Set(exprs.flatMap((e) => [...e.matchAll(/\b(?:paygate|process|nodejs)_[a-z0-9_]+/g)].map((m) => m[0])));
}

describe('the operator kit', () => {
  let svc: TestService;
  let shop: Shop;
  let f: ReturnType<typeof flow>;
  let failing: Receiver;
  const scrape = async (): Promise<{ text: string; samples: Sample[] }> => {
    const text = await (await fetch(`${svc.directUrl}/metrics`)).text();
    return { text, samples: parseExposition(text) };
  };

  beforeAll(async () => {
    // A chain and a database of this file's own (useChainSuite); every read fresh: a scrape shows what the database
    // and the chain say at that scrape.
    svc = await startTestService({ METRICS_DB_CACHE_MS: '0', METRICS_LEDGER_CHECK_MS: '0' });
    const s = await setup(svc);
    shop = s.shop;
    f = flow(svc.url, shop, s.gw);
    failing = await startReceiver();
    failing.respond = () => 500;
  }, 60_000);
  afterAll(async () => {
    await failing?.close();
    await svc?.close();
  });

  it('every metric the alert rules and the Grafana dashboard name is one the service exports', async () => {
    const { text } = await scrape();
    const exported = new Set<string>();
    for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      exported.add(m[1]);
      if (m[2] === 'histogram') for (const s of ['_bucket', '_sum', '_count']) exported.add(m[1] + s);
    }
    const named = namedMetrics();
    expect(named.size).toBeGreaterThan(25);
    expect([...named].filter((n) => !exported.has(n))).toEqual([]);
  });

  it('after a payment on chain, a refund waiting for funding and a failing endpoint, the gauges say what happened', async () => {
    const hook = await client(svc.url, { 'Api-Key': shop.apiKey, ...PREVIEW })('POST', '/v1/webhook-endpoints', {
      body: { url: failing.url, enabledEvents: ['payment.succeeded'] },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    expect(hook.status).toBe(201);
    const buyer = await newBuyer(100_000_000n);
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    expect((await f.confirm(id, opt.id, await buyer.signTypedData(td))).status).toBe(200);
    await f.until(id, (x) => x.settlement?.successful !== undefined, 40_000);
    const collector = getAddress(td.message.to as string);
    // Settled: nothing of the payment is left at the collector, so its refund waits for the partner's funding.
    const asMerchant = client(svc.url, { 'Api-Key': shop.apiKey, 'Merchant-Id': shop.merchantId, ...PREVIEW });
    const refund = await asMerchant('POST', '/v1/refunds', { body: { paymentId: id } });
    expect(refund.body.refund.status).toBe('requires_funding');
    await failing.until((all) => all.length >= 1);

    const gasPaid = async () => {
      const { rows } = await svc.db.raw(
        `SELECT coalesce(sum(e.amount), 0)::text AS wei FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
          WHERE j.kind = 'gas' AND e.bucket = 'gas' AND e.holder = ?`,
        [collector],
      );
      return Number(rows[0].wei);
    };
    const { samples } = await eventually(async () => {
      const s = await scrape();
      const v = (name: string, labels: Record<string, string> = {}) => sampleValue(s.samples, name, labels);
      const settled = v('paygate_chain_transactions_24h', { chain: CHAINS[0], purpose: 'settle', status: 'confirmed' });
      if (
        !settled ||
        !v('paygate_webhook_endpoints_failing') ||
        v('paygate_relayer_gas_spent_24h_wei', { relayer: collector }) !== (await gasPaid())
      )
        throw new Error(
          'not yet: ' +
            s.text
              .split('\n')
              .filter((l) => /chain_transactions_24h|endpoints_failing|gas_spent/.test(l))
              .join('\n'),
        );
      return s;
    }, 30_000);
    // A gauge the rules read must be there, not only read as 0 when it is missing.
    const v = (name: string, labels: Record<string, string> = {}) => {
      const found = samples.filter((x) => x.name === name && Object.entries(labels).every(([k, val]) => x.labels[k] === val));
      if (found.length !== 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} samples`);
      return found[0].value;
    };

    expect(v('paygate_database_up')).toBe(1);
    for (const chain of CHAINS) expect({ chain, up: v('paygate_rpc_up', { chain }) }).toEqual({ chain, up: 1 });
    const head = Number(await chainClient().getBlockNumber({ cacheTime: 0 }));
    expect(v('paygate_rpc_head_block', { chain: CHAINS[0] })).toBeGreaterThan(0);
    expect(v('paygate_rpc_head_block', { chain: CHAINS[0] })).toBeLessThanOrEqual(head);
    // The relayer's transactions of the day: one collect and one settlement, both confirmed; the gas they cost.
    expect(v('paygate_chain_transactions_24h', { chain: CHAINS[0], purpose: 'collect', status: 'confirmed' })).toBe(1);
    expect(v('paygate_relayer_gas_spent_24h_wei', { chain: CHAINS[0], relayer: collector })).toBeGreaterThan(0);
    // The ledger checked against the chain: no difference on either chain; the collector holds the fee on both sides.
    for (const chain of CHAINS)
      expect({ chain, differences: v('paygate_ledger_differences', { chain }) }).toEqual({ chain, differences: 0 });
    const holding = (source: string) => v('paygate_collector_holding', { chain: CHAINS[0], asset: DEVNET_USDC, holder: collector, source });
    expect(holding('ledger')).toBe(Number(await balanceOf(collector)));
    expect(holding('chain')).toBe(holding('ledger'));
    expect(v('paygate_refunds_awaiting_funding')).toBe(1);
    expect(v('paygate_refunds_awaiting_funding_oldest_seconds')).toBeGreaterThanOrEqual(0);
    expect(v('paygate_webhook_endpoints_failing')).toBe(1);
    expect(v('paygate_webhook_endpoint_failing_longest_seconds')).toBeGreaterThanOrEqual(0);
    expect(v('paygate_longpoll_fullest_ratio', { kind: 'credential' })).toBe(0);
    expect(v('paygate_relayer_stuck_after_seconds')).toBeGreaterThan(0);
  }, 90_000);
});
