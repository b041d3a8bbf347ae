import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { adminOn } from '../support/service';
import { startReceiver, type Receiver } from '../support/webhookReceiver';
import { send, sleep, type Outcome } from '../faults/kit';
import { payOverX402 } from './x402Pay';
import { CHAIN_1, CHAIN_2, USDC, type SoakStack } from './stack';

// The soak's load: partners and wallets doing what they do, through whichever service process is alive, the way
// a client following the contract does it (the same Idempotency-Key again after a connection error, a 503, a
// 429 or 409 idempotency_in_progress). Every answer is counted by outcome, and every acknowledged write is
// remembered for the checks. Webhook receivers fail (500) or hang at random while the load runs. A quarter of the
// payments are on the second development chain; half of the refunds wait for their payment's settlement first, so
// that the collector holds nothing of the account's for them and their funding payment is paid, over the gateway's
// confirm or over the payment's x402 link, on the refund's chain.

export interface Account {
  accountId: string;
  partner: Record<string, string>;
  headers: Record<string, string>;
  wallet: Record<string, string>;
  merchantId: string;
  destination: Address;
  receiver: Receiver;
}

export interface PaymentRecord {
  id: string;
  account: Account;
  buyer: Address;
  chainId: number;
  tokenUnits: bigint;
  cancelled?: boolean;
  refused?: string;
  confirmedAt?: number;
  final?: string;
  finalAt?: number;
}

export interface LoadRecord {
  outcomes: Map<string, number>;
  merchants: { key: string; id: string }[];
  payments: PaymentRecord[];
}

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
const RETRY_FOR_MS = 120_000;
const retryable = (o: Outcome) =>
  o.error !== undefined ||
  o.status === 503 ||
  o.status === 429 ||
  (o.status === 409 && [o.body?.code, o.body?.reason].includes('idempotency_in_progress'));

export function startLoad(stack: SoakStack, dbUrl: string, actors: number) {
  const rec: LoadRecord = { outcomes: new Map(), merchants: [], payments: [] };
  let stopping = false;
  let seq = 0;
  const count = (label: string) => rec.outcomes.set(label, (rec.outcomes.get(label) ?? 0) + 1);

  /** One request to a live process; retried as the contract says until acknowledged or refused. */
  async function call(method: string, path: string, route: string, headers: Record<string, string>, body?: unknown): Promise<Outcome> {
    const deadline = Date.now() + RETRY_FOR_MS;
    for (;;) {
      const url = stack.url();
      const o: Outcome = url ? await send(url, method, path, headers, body) : { error: 'no process', startedAt: Date.now(), ms: 0 };
      count(`${method} ${route} ${o.status ?? o.error}${o.body?.code ? ` ${o.body.code}` : ''}`);
      if (!retryable(o) || Date.now() > deadline) return o;
      await sleep(o.status === 503 || o.status === 429 ? Math.min(1000, 1000 * Number(o.headers?.get('retry-after') ?? '0.2')) : 200);
    }
  }

  async function newAccount(i: number): Promise<Account> {
    const a = (await adminOn(dbUrl, 'accounts', 'create', '--name', `Soak ${i}`)) as Record<string, string>;
    if (i === 0) await adminOn(dbUrl, 'accounts', 'set-fee', '--account', a.accountId, '--base-minor', '10', '--percent', '1.5');
    // Settlement on a schedule: every 10 "minutes" of SETTLEMENT_SCHEDULE_UNIT_MS (tests/soak/soak.test.ts).
    if (i === 1) await adminOn(dbUrl, 'accounts', 'set-settlement-schedule', '--account', a.accountId, '--every-minutes', '10');
    // A refund reserve on both (docs/ledger.md "Refund reserve"): refunds after the settlement left draw on it, and it
    // releases to the merchant a minute (a real one: windows are minutes of the database's clock) after each payment.
    await adminOn(dbUrl, 'accounts', 'set-reserve', '--account', a.accountId, '--bps', i === 0 ? '5000' : '2500', '--window-minutes', '1');
    const wallet = { 'Api-Key': (await adminOn(dbUrl, 'keys', 'create', '--account', a.accountId, '--type', 'wallet')).apiKey };
    const headers = { 'Api-Key': a.apiKey };
    const m = await call(
      'POST',
      '/v1/merchants',
      'merchants',
      { ...headers, 'Idempotency-Key': `m-${i}` },
      { merchantName: `Soak ${i}`, merchantEmail: 's@x.io' },
    );
    const merchantId = m.body.merchant.id;
    const destination = privateKeyToAccount(generatePrivateKey()).address;
    await call(
      'POST',
      `/v1/merchants/${merchantId}/settlements/crypto`,
      'settlements',
      { ...headers, 'Idempotency-Key': `s-${i}` },
      {
        settlements: [CHAIN_1, CHAIN_2].map((c) => ({ asset: `eip155:${c}/erc20:${USDC}`, destination: `eip155:${c}:${destination}` })),
      },
    );
    const receiver = await startReceiver();
    // Random failures and hangs while the load runs; answered once it stops (a receiver that eventually answers).
    receiver.respond = () => (stopping ? 200 : Math.random() < 0.15 ? 500 : Math.random() < 0.03 ? 'hang' : 200);
    const ep = await call(
      'POST',
      '/v1/webhook-endpoints',
      'webhook-endpoints',
      { ...headers, ...PREVIEW, 'Idempotency-Key': `w-${i}` },
      {
        url: receiver.url,
        enabledEvents: [
          'payment.created',
          'payment.processing',
          'payment.succeeded',
          'payment.failed',
          'payment.expired',
          'payment.cancelled',
          'payment.settled',
          'payment.settlement_held',
          'payment.refunded',
          'refund.created',
          'refund.succeeded',
          'refund.failed',
        ],
      },
    );
    if (ep.status !== 201) throw new Error(`soak: webhook endpoint not created: ${JSON.stringify(ep.body)}`);
    return {
      accountId: a.accountId,
      partner: headers,
      headers: { ...headers, 'Merchant-Id': merchantId },
      wallet,
      merchantId,
      destination,
      receiver,
    };
  }

  async function payOnce(account: Account): Promise<void> {
    const n = ++seq;
    const minor = 100 + Math.floor(Math.random() * 9900);
    const created = await call(
      'POST',
      '/v1/payments',
      'payments',
      { ...account.headers, 'Idempotency-Key': `p-${n}` },
      {
        referenceId: `soak-${n}`,
        amount: { unit: 'iso4217/USD', value: String(minor) },
      },
    );
    if (created.status !== 201) return;
    const buyer = privateKeyToAccount(generatePrivateKey());
    const chainId = Math.random() < 0.25 ? CHAIN_2 : CHAIN_1;
    const p: PaymentRecord = { id: created.body.paymentId, account, buyer: buyer.address, chainId, tokenUnits: BigInt(minor) * 10_000n };
    rec.payments.push(p);
    if (Math.random() < 0.1) {
      const c = await call('POST', `/v1/payments/${p.id}/cancel`, 'cancel', account.headers, {});
      p.cancelled = c.status === 200;
      return;
    }
    const refused = await payAs(account, p.id, buyer, `${n}`, chainId);
    if (refused) return void (p.refused = refused);
    p.confirmedAt = Date.now();
    const until = Date.now() + 180_000;
    while (Date.now() < until) {
      const s = await call('GET', `/v1/payments/${p.id}/status?maxPollMs=10000`, 'status', account.headers);
      if (s.body?.isFinal) {
        p.final = s.body.status;
        p.finalAt = Date.now();
        if (p.final === 'succeeded' && Math.random() < 0.25) await refundOnce(account, p.id, minor, n, chainId);
        return;
      }
    }
  }

  /** Options for `buyer`, the buyer funded, the authorization signed and confirmed; a refusal's description, or null. */
  async function payAs(account: Account, paymentId: string, buyer: ReturnType<typeof privateKeyToAccount>, key: string, chainId: number) {
    const o = await call('POST', `/v1/gateway/payment/${paymentId}/options`, 'options', account.wallet, {
      accounts: [`eip155:${chainId}:${buyer.address}`],
    });
    const opt = o.body?.options?.[0];
    if (!opt) return `options ${o.status}`;
    if (!(await stack.chain.mint(buyer.address, BigInt(opt.amount.value), chainId))) return 'funding not mined';
    const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
    for (let attempt = 1; ; attempt++) {
      const c = await call(
        'POST',
        `/v1/gateway/payment/${paymentId}/confirm`,
        'confirm',
        { ...account.wallet, 'Idempotency-Key': `c-${key}-${attempt}` },
        {
          optionId: opt.id,
          results: [{ type: 'walletRpc', data: [sig] }],
        },
      );
      if (c.status === 200) return null;
      // A token paused for a block, or a funding transaction reorged out: the wallet tries again a little later.
      if (attempt >= 4 || c.status !== 400) return `confirm ${c.status} ${c.body?.code}`;
      await sleep(1500);
    }
  }

  /**
   * Half of a succeeded payment refunded, at once or after its settlement left; when the account's balance is short,
   * its funding payment paid by another wallet on the refund's chain, over the gateway's confirm or the x402 link.
   */
  async function refundOnce(account: Account, paymentId: string, minor: number, n: number, chainId: number): Promise<void> {
    if (Math.random() < 0.5)
      for (const until = Date.now() + 30_000; !stopping && Date.now() < until; await sleep(1000)) {
        const d = await call('GET', `/v1/payments/${paymentId}`, 'payment', account.headers);
        if (d.body?.settlement?.successful) break; // left (a pending or failed settlement has not)
      }
    const r = await call(
      'POST',
      '/v1/refunds',
      'refunds',
      { ...account.headers, ...PREVIEW, 'Idempotency-Key': `r-${n}` },
      { paymentId, amount: { unit: 'iso4217/USD', value: String(Math.max(1, Math.floor(minor / 2))) } },
    );
    const funding = r.body?.refund?.fundingInstructions;
    if (r.status !== 200 || !funding) return;
    const funder = privateKeyToAccount(generatePrivateKey());
    if (Math.random() < 0.5) await payAs(account, funding.paymentId, funder, `f-${n}`, chainId);
    else await payOverX402({ call, mint: stack.chain.mint }, account.wallet, funding.paymentId, funder, chainId);
  }

  const accounts: Account[] = [];
  const running: Promise<void>[] = [];
  return {
    rec,
    accounts,
    start: async () => {
      for (let i = 0; i < 2; i++) accounts.push(await newAccount(i));
      for (let a = 0; a < actors; a++)
        running.push(
          (async () => {
            while (!stopping)
              await payOnce(accounts[a % accounts.length]).catch((e) =>
                count(`load error: ${String((e as Error).message).split('\n')[0]}`),
              );
          })(),
        );
      running.push(
        (async () => {
          for (let i = 0; !stopping; i++) {
            const key = `soak-merchant-${i}`;
            const m = await call(
              'POST',
              '/v1/merchants',
              'merchants',
              { ...accounts[0].partner, 'Idempotency-Key': key },
              {
                merchantName: `Merchant ${i}`,
                merchantEmail: 'm@x.io',
              },
            );
            if (m.status === 201) rec.merchants.push({ key, id: m.body.merchant.id });
            await sleep(1000);
          }
        })(),
      );
    },
    /** Stops starting new work, and waits for the payments under way to reach a final state (or give up). */
    stop: async () => {
      stopping = true;
      await Promise.all(running);
    },
  };
}
