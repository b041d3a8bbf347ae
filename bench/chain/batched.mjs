// Part 4 of the on-chain benchmark: gas per settled payment with settlement on a schedule (docs/ledger.md), beside
// the immediate settlement of part 2 in the same run. One merchant's BENCH_CHAIN_BATCH_N payments are collected while
// its account settles every 44640 "minutes" (nothing goes out), then the schedule is shortened to one minute of 1 s:
// the next slot sends them all in one transfer. Checked: every payment settled with that one transaction, and the
// merchant's wallet received the sum.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generatePrivateKey } from 'viem/accounts';
import { freePort, node } from '../lib.mjs';
import { devnet, USDC } from './config.mjs';
import { meanGas, newBuyers, pool, rpc, sleep } from './chainOps.mjs';
import { startService } from './service.mjs';

export const BATCH_N = Number(process.env.BENCH_CHAIN_BATCH_N || 50);

const schedule = (svc, every) =>
  node('dist/src/cli/admin.js', svc.env, ['accounts', 'set-settlement-schedule', '--account', svc.accountId, '--every-minutes', every]);

async function until(read, what, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await read()) return;
    if (Date.now() > deadline) throw new Error(`batched settlement: ${what} not within ${ms} ms`);
    await sleep(50);
  }
}

export async function batched(pg) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-anvil-'));
  const chain = await devnet.startDevnetChain({ dir, port: await freePort() });
  let svc;
  try {
    svc = await startService(pg, 'paygate_bench_batched', chain.rpcUrl, generatePrivateKey(), {
      CHAIN_POLL_INTERVAL_MS: '100',
      SWEEP_INTERVAL_MS: '200',
      SETTLEMENT_SCHEDULE_UNIT_MS: '1000',
    });
    schedule(svc, '44640');
    const buyers = await newBuyers(chain.rpcUrl, BATCH_N);
    const prepared = [];
    await pool(BATCH_N, 10, async (i) => prepared.push(await svc.prepare(buyers[i], `batch${i}`)));
    await pool(BATCH_N, 10, async (i) => svc.confirm(prepared[i]));
    const ids = prepared.map((p) => p.paymentId);
    const count = async (sql) => Number((await svc.db.raw(sql, [ids])).rows[0].n);
    await until(
      async () =>
        (await count(
          `SELECT count(*) AS n FROM ledger_journals WHERE ref = ANY(SELECT 'collected:' || x FROM unnest(?::text[]) x)
           AND created_at < now() - interval '1.1 second'`,
        )) === BATCH_N,
      'all payments collected',
    );
    if ((await count(`SELECT count(*) AS n FROM payments WHERE id = ANY(?) AND settled_at IS NOT NULL`)) !== 0)
      throw new Error('batched settlement: a payment settled before its slot');
    schedule(svc, '1');
    await until(
      async () => (await count(`SELECT count(*) AS n FROM payments WHERE id = ANY(?) AND settled_at IS NOT NULL`)) === BATCH_N,
      'all payments settled',
    );
    const hashes = [...new Set(await svc.db('payments').whereIn('id', ids).pluck('settlement_tx_hash'))];
    const batches = await svc.db('chain_transactions').where({ purpose: 'settle_batch', status: 'confirmed' }).pluck('tx_hash');
    const received = await rpc(chain.rpcUrl, 'eth_call', [{ to: USDC, data: balanceOfData(svc.merchantWallet) }, 'latest']);
    const collect = await meanGas(
      chain.rpcUrl,
      (await svc.db('chain_transactions').where({ purpose: 'collect', status: 'confirmed' }).pluck('tx_hash')).slice(0, 50),
    );
    const batchGas = await meanGas(chain.rpcUrl, batches);
    return {
      n: BATCH_N,
      transactions: hashes.length,
      sound: hashes.length === 1 && batches.length === 1 && hashes[0] === batches[0],
      received: BigInt(received),
      batchGas,
      collect,
      perPayment: batchGas / BATCH_N,
    };
  } finally {
    if (svc) await svc.stop();
    await chain.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const balanceOfData = (who) => `0x70a08231${who.slice(2).toLowerCase().padStart(64, '0')}`;
