import { generatePrivateKey, type PrivateKeyAccount } from 'viem/accounts';
import { createDb } from '../../src/db/knex';
import { DEVNET_USDC, newWallet } from '../support/chain';
import { eventually } from '../support/eventually';
import { freshDatabase } from '../support/freshDb';
import { startRpcProxy } from '../support/rpcProxy';
import { client, newAccount, newKey } from '../support/service';
import { spawnService, type ServiceProcess } from '../support/serviceProcess';

// What the fault scenarios share: the built service as OS processes on a database of the scenario's own (so
// its counts are exact and no other test's queue runs in them), callers that see every outcome (a status or
// a connection error, never a throw), retries the way a client following the contract does them, and the
// figures each scenario prints.

// The scenarios need processes and databases of their own: skipped against an external service.

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One request's outcome as its caller saw it: a response, or the connection error (no response at all). */
export interface Outcome {
  status?: number;
  body?: any;
  headers?: Headers;
  error?: string;
  startedAt: number;
  ms: number;
}

export const acknowledged = (o: Outcome) => o.status !== undefined && o.status >= 200 && o.status < 300;

/** Sends one request; never throws (a refused or reset connection is an outcome too). */
export async function send(url: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Outcome> {
  const startedAt = Date.now();
  try {
    const r = await fetch(url + path, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: r.status, body: parsed, headers: r.headers, startedAt, ms: Date.now() - startedAt };
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause;
    return { error: cause?.code ?? (e as Error).message, startedAt, ms: Date.now() - startedAt };
  }
}

/**
 * Sends until acknowledged, as a client does with the same Idempotency-Key: again after a connection error,
 * a 503 or 429 (after Retry-After, capped so the test stays short) or 409 idempotency_in_progress. Any other
 * answer is returned as is, for the test to judge.
 */
export async function sendUntilAcknowledged(call: () => Promise<Outcome>, timeoutMs = 30_000): Promise<Outcome & { tries: number }> {
  const deadline = Date.now() + timeoutMs;
  for (let tries = 1; ; tries++) {
    const o = await call();
    const retryable =
      o.error !== undefined ||
      o.status === 503 ||
      o.status === 429 ||
      (o.status === 409 && [o.body?.code, o.body?.reason].includes('idempotency_in_progress'));
    if (!retryable || Date.now() > deadline) return { ...o, tries };
    await sleep(Math.min(1000, 1000 * Number(o.headers?.get('retry-after') ?? '0.2')));
  }
}

/** Runs `work` on every item, `concurrency` at a time. */
export async function inPool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

export function latency(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
  return { n: s.length, p50: at(50), p99: at(99), max: s[s.length - 1] };
}

/** The scenario's figures, one line of JSON under its name. */
export const figures = (scenario: string, f: Record<string, unknown>) => console.log(`faults: ${scenario} ${JSON.stringify(f)}`);

/** A database of its own and the environment for service processes on it (relayer keys of their own too). */
export async function ownStack(prefix: string, env: Record<string, string> = {}) {
  const db = await freshDatabase(prefix);
  const procEnv = { DATABASE_URL: db.url, DEVNET_RELAYER_KEYS: generatePrivateKey(), NODE_ENV: 'test', ...env };
  const procs: ServiceProcess[] = [];
  return {
    dbUrl: db.url,
    env: procEnv,
    /** A service process (it migrates the database on its first start). */
    start: async (extra: Record<string, string> = {}) => {
      const p = await spawnService({ ...procEnv, ...extra });
      procs.push(p);
      return p;
    },
    close: async () => {
      for (const p of procs) await p.kill();
      await db.drop();
    },
  };
}

/**
 * For a describe block: `start()` runs a service process on a database of its own (ownStack) whose development chain
 * it reaches through an RPC proxy the test breaks at will (tests/support/rpcProxy.ts), and opens that database; all
 * of it is stopped after the block.
 */
export function proxiedStack(prefix: string, env: Record<string, string> = {}) {
  const proxyP = startRpcProxy(process.env.DEVNET_RPC_URL!);
  let stack: Awaited<ReturnType<typeof ownStack>> | undefined;
  let db: ReturnType<typeof createDb> | undefined;
  afterAll(async () => {
    await db?.destroy();
    await stack?.close();
    await (await proxyP).close();
  });
  return {
    start: async () => {
      const proxy = await proxyP;
      stack = await ownStack(prefix, { DEVNET_RPC_URL: proxy.url, ...env });
      db = createDb(stack.dbUrl, 2);
      return { proxy, stack, db, url: (await stack.start()).url };
    },
  };
}

/** A payment of `value` US cents created by a partner (its headers): the payment's id. */
export async function usdPayment(url: string, headers: Record<string, string>, referenceId: string, value: string): Promise<string> {
  const r = await send(url, 'POST', '/v1/payments', headers, { referenceId, amount: { unit: 'iso4217/USD', value } });
  if (r.status !== 201) throw new Error(`payment fixture failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.paymentId as string;
}

/** A refund as its merchant reads it (headers with the PAY-Version of refunds), once it is `status` (else the last read, after `ms`). */
export const refundReaching = (url: string, merchant: Record<string, string>, refundId: string, status: string, ms = 60_000) =>
  eventually(
    async () => (await send(url, 'GET', `/v1/refunds/${refundId}`, merchant)).body.refund,
    (x) => x.status === status,
    ms,
  );

/** A buyer pays payment `id` through the gateway (wallet key headers `wallet`): options, then the confirm's outcome. */
export async function gatewayPay(url: string, wallet: Record<string, string>, id: string, payer: PrivateKeyAccount) {
  const opt = (await send(url, 'POST', `/v1/gateway/payment/${id}/options`, wallet, { accounts: [`eip155:31337:${payer.address}`] })).body
    .options[0];
  const sig = await payer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
  return send(url, 'POST', `/v1/gateway/payment/${id}/confirm`, wallet, {
    optionId: opt.id,
    results: [{ type: 'walletRpc', data: [sig] }],
  });
}

/** An account (admin command on `dbUrl`) with a merchant settling the development chain's USDC, through the API. */
export async function partner(url: string, dbUrl: string, name: string) {
  const acct = await newAccount(name, dbUrl);
  const api = client(url, { 'Api-Key': acct.apiKey });
  const m = await api('POST', '/v1/merchants', {
    body: { merchantName: name, merchantEmail: 'f@x.io' },
    headers: { 'Idempotency-Key': `${name}-merchant` },
  });
  if (m.status !== 201) throw new Error(`merchant fixture failed: ${m.text}`);
  const merchantId: string = m.body.merchant.id;
  const s = await api('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
    body: { settlements: [{ asset: DEVNET_USDC, destination: `eip155:31337:${newWallet()}` }] },
    headers: { 'Idempotency-Key': `${name}-settlement` },
  });
  if (s.status !== 201) throw new Error(`settlement fixture failed: ${s.text}`);
  return { ...acct, merchantId, headers: { 'Api-Key': acct.apiKey, 'Merchant-Id': merchantId } };
}

/**
 * A partner (as `partner`) for the refund scenarios: its merchant's headers with the PAY-Version that has refunds
 * (`merchant`) and a wallet key's (`wallet`).
 */
export async function refundShop(url: string, dbUrl: string, name: string) {
  const shop = await partner(url, dbUrl, name);
  const wallet = { 'Api-Key': (await newKey(shop.accountId, 'wallet', dbUrl)).apiKey };
  return { ...shop, merchant: { ...shop.headers, 'PAY-Version': '2026-02-19.preview' }, wallet };
}
