#!/usr/bin/env node
// Gateway latency at a steady rate: POST .../options and POST .../confirm (signature verification, the
// conditional UPDATE with its outbox event, the enqueue), p50/p99 from autocannon. Not part of make test.
//
//   make start &                     # or any running paygate; the admin command must reach its database
//   node bench/gateway.mjs           # BASE_URL (default http://127.0.0.1:8080), RATE (req/s, default 50),
//                                    # DURATION (s, default 10), CONNECTIONS (default 10)
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { privateKeyToAccount } from 'viem/accounts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const BASE = (process.env.BASE_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');
const RATE = Number(process.env.RATE || 50);
const DURATION = Number(process.env.DURATION || 10);
const CONNECTIONS = Number(process.env.CONNECTIONS || 10);
const buyer = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
// The development chain `make start` serves (settlements on a chain it does not serve are refused).
const { devnetAssetId } = await import(path.join(root, 'dist/src/chain/devnet.js'));
const ASSET = devnetAssetId('USDC');
const CHAIN = ASSET.split('/')[0];
const ACCOUNT = `${CHAIN}:${buyer.address}`;

const admin = (...args) =>
  JSON.parse(execFileSync('node', [path.join(root, 'dist/src/cli/admin.js'), ...args], { cwd: root, encoding: 'utf8' }));
async function call(method, p, headers, body) {
  const r = await fetch(BASE + p, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body && JSON.stringify(body),
  });
  const json = await r.json();
  if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(json)}`);
  return json;
}

const acct = admin('accounts', 'create', '--name', 'bench');
const wallet = admin('keys', 'create', '--account', acct.accountId, '--type', 'wallet');
const partner = { 'Api-Key': acct.apiKey };
const gw = { 'Api-Key': wallet.apiKey };
const m = await call(
  'POST',
  '/v1/merchants',
  { ...partner, 'Idempotency-Key': `bench-${Date.now()}` },
  { merchantName: 'Bench', merchantEmail: 'b@bench.example' },
);
const merchantId = m.merchant.id;
await call(
  'POST',
  `/v1/merchants/${merchantId}/settlements/crypto`,
  { ...partner, 'Idempotency-Key': `bench-s-${Date.now()}` },
  {
    settlements: [{ asset: ASSET, destination: `${CHAIN}:0x52908400098527886E0F7030069857D2E4169EE7` }],
  },
);
const newPayment = async () =>
  (
    await call(
      'POST',
      '/v1/payments',
      { ...partner, 'Merchant-Id': merchantId },
      {
        referenceId: `bench-${Math.random()}`,
        amount: { unit: 'iso4217/USD', value: '1000' },
        expiresAt: Math.floor(Date.now() / 1000) + 3600,
      },
    )
  ).paymentId;

function report(name, r) {
  const ok = r['2xx'];
  console.log(
    `${name.padEnd(8)} rate ${RATE}/s x ${DURATION}s: ${r.requests.total} requests, ${ok} 2xx, ${r.non2xx} non-2xx, ${r.errors} errors; ` +
      `latency p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms`,
  );
}

// options: one open payment, quoted again and again (each call stores a fresh option).
const optPayment = await newPayment();
const optRun = await autocannon({
  url: `${BASE}/v1/gateway/payment/${optPayment}/options`,
  method: 'POST',
  connections: CONNECTIONS,
  duration: DURATION,
  overallRate: RATE,
  headers: { ...gw, 'content-type': 'application/json' },
  body: JSON.stringify({ accounts: [ACCOUNT] }),
});
report('options', optRun);

// confirm: every request needs its own payment, option and signature, prepared beforehand.
const n = RATE * DURATION + CONNECTIONS * 2;
const prepared = [];
for (let i = 0; i < n; i += 20) {
  prepared.push(
    ...(await Promise.all(
      Array.from({ length: Math.min(20, n - i) }, async () => {
        const id = await newPayment();
        const o = await call('POST', `/v1/gateway/payment/${id}/options`, gw, { accounts: [ACCOUNT] });
        const opt = o.options[0];
        const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
        return {
          path: `/v1/gateway/payment/${id}/confirm`,
          body: JSON.stringify({ optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] }),
        };
      }),
    )),
  );
}
let next = 0;
const confirmRun = await autocannon({
  url: BASE,
  connections: CONNECTIONS,
  duration: DURATION,
  overallRate: RATE,
  headers: { ...gw, 'content-type': 'application/json' },
  requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, ...prepared[next++ % prepared.length] }) }],
});
report('confirm', confirmRun);
