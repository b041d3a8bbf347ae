// The service under benchmark: its own database on the shared cluster, started as a child process, with an
// account, a merchant settling one token and a wallet key; and the calls a partner and a wallet make.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { freePort, node, startChild, stopChild } from '../lib.mjs';
import { AMOUNT, devnet } from './config.mjs';

/**
 * The service on `dbUrl`, attached to the anvil at `rpcUrl` with one relayer key; an account (settling in `mode`), a
 * merchant settling USDC (or the devnet token `symbol`, or the CAIP-19 asset `symbol`: the chain's ETH), a wallet key.
 */
export async function startService(pg, dbName, rpcUrl, relayerKey, extraEnv, childOpts = {}, symbol = 'USDC', mode = 'collector') {
  const asset = symbol.includes('/') ? symbol : devnet.devnetAssetId(symbol);
  const url = await newDatabase(pg.url, dbName);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-devnet-'));
  const env = {
    DATABASE_URL: url,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    // production would disable the devnet; development with response validation off is the closest
    NODE_ENV: 'development',
    VALIDATE_RESPONSES: 'false',
    DATA_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
    DEVNET_RPC_URL: rpcUrl,
    DEVNET_DIR: dir,
    DEVNET_CONFIRMATIONS: '1',
    DEVNET_RELAYER_KEYS: relayerKey,
    QUOTE_TTL_SECONDS: '1800',
    PAYMENT_TTL_SECONDS: '3600',
    // Development's refund reserve would hold every settlement for 5 minutes: the benchmark measures them at once.
    REFUND_RESERVE_BPS: '0',
    ...extraEnv,
  };
  let child;
  let acct;
  let wallet;
  try {
    node('dist/src/cli/migrate.js', env);
    acct = JSON.parse(node('dist/src/cli/admin.js', env, ['accounts', 'create', '--name', 'Bench']));
    if (mode !== 'collector') node('dist/src/cli/admin.js', env, ['accounts', 'set-mode', '--account', acct.accountId, '--mode', mode]);
    wallet = JSON.parse(node('dist/src/cli/admin.js', env, ['keys', 'create', '--account', acct.accountId, '--type', 'wallet']));
    child = await startChild('dist/src/main.js', env, `http://127.0.0.1:${port}/readyz`, childOpts);
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const base = `http://127.0.0.1:${port}`;
  const call = async (method, p, key, b, headers = {}) => {
    const r = await fetch(base + p, {
      method,
      body: b && JSON.stringify(b),
      headers: { 'content-type': 'application/json', 'Api-Key': key, ...headers },
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${text}`);
    return JSON.parse(text);
  };
  const merchantWallet = privateKeyToAccount(generatePrivateKey()).address;
  const m = await call(
    'POST',
    '/v1/merchants',
    acct.apiKey,
    { merchantName: 'Bench', merchantEmail: 'bench@example.com' },
    { 'Idempotency-Key': 'bench-m' },
  );
  const merchantId = m.merchant.id;
  await call(
    'POST',
    `/v1/merchants/${merchantId}/settlements/crypto`,
    acct.apiKey,
    { settlements: [{ asset, destination: `eip155:31337:${merchantWallet}` }] },
    { 'Idempotency-Key': 'bench-s' },
  );
  const db = knex({ client: 'pg', connection: url, pool: { min: 0, max: 2 } });
  const svc = {
    child,
    db,
    dbName,
    /** The service's environment (for the admin command) and its account. */
    env,
    accountId: acct.accountId,
    asset,
    merchantWallet,
    merchant: (method, p, b) => call(method, p, acct.apiKey, b, { 'Merchant-Id': merchantId }),
    gateway: (method, p, b) => call(method, p, wallet.apiKey, b),
    /** A payment, its first option for `buyer`, and the buyer's signature: everything a confirm needs. */
    async prepare(buyer, ref) {
      const { paymentId } = await svc.merchant('POST', '/v1/payments', {
        referenceId: ref,
        amount: { unit: 'iso4217/USD', value: AMOUNT },
      });
      const { options } = await svc.gateway('POST', `/v1/gateway/payment/${paymentId}/options`, {
        accounts: [`eip155:31337:${buyer.address}`],
      });
      const opt = options.find((o) => o.amount.unit === `caip19/${asset}`);
      // The last action is the signature (a Permit2 buyer approved Permit2 before: no approve action then).
      if (opt.actions.length !== 1) throw new Error(`option ${opt.id}: ${opt.actions.length} actions`);
      const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
      return { paymentId, optionId: opt.id, sig };
    },
    confirm: (p) =>
      svc.gateway('POST', `/v1/gateway/payment/${p.paymentId}/confirm`, {
        optionId: p.optionId,
        results: [{ type: 'walletRpc', data: [p.sig] }],
      }),
    async stop() {
      await db.destroy();
      await stopChild(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return svc;
}

/** One cluster, one database per part (each part has its own anvil, and nonces are stored per chain id). */
async function newDatabase(clusterUrl, name) {
  const admin = knex({ client: 'pg', connection: clusterUrl, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`CREATE DATABASE ${name}`);
  } finally {
    await admin.destroy();
  }
  const u = new URL(clusterUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
